#!/usr/bin/env bash
# Installs the CUDA 11.8 toolkit (nvcc, cuda.h) from Debian's non-free
# component. Needed only to build with -tags cuda (cuda.h; the binary links
# no CUDA library) or to regenerate the kernels; the default build needs no
# CUDA at all.
set -euo pipefail

if command -v nvcc >/dev/null 2>&1 && [ -f /usr/include/cuda.h ]; then
  echo "setup-cuda: nvcc already present: $(nvcc --version | tail -1)"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

src=/etc/apt/sources.list.d/pathflow-nonfree.sources
if [ ! -f "$src" ]; then
  $sudo tee "$src" >/dev/null <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
fi

$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit >/dev/null
echo "setup-cuda: installed $(nvcc --version | tail -1)"
