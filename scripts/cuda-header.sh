#!/usr/bin/env bash
# Installs cuda.h, the one CUDA file the -tags cuda build needs (the binary
# links no CUDA library), without the CUDA toolkit: Debian's CUDA 11.8
# headers ship only in nvidia-cuda-dev, a 774 MB package, and cuda.h is
# near the front of it. This streams the package from the Debian archive
# and stops reading once cuda.h is out (about 2 MB), then checks the
# header against the one pathflow's driver trampolines were generated from
# (internal/cudalazy). NVIDIA's license does not let pathflow ship the
# header itself.
#
#   scripts/cuda-header.sh [DIR]     # writes DIR/cuda.h (default /usr/include)
#
# Needs apt-get, curl, dpkg-deb and tar (any Debian 12 build image has
# them). scripts/setup-cuda.sh installs the whole toolkit instead, for nvcc
# (go generate ./kernels).
set -euo pipefail

dir=${1:-/usr/include}
# sha256 of Debian's cuda.h (nvidia-cuda-dev 11.8.89~11.8.0-5~deb12u1,
# CUDA_VERSION 11080).
want=55639151a971a10c28d627a98dcd406c6320a5b4e5b67dd9d229056ed5c8e045

if [ -f "$dir/cuda.h" ] && echo "$want  $dir/cuda.h" | sha256sum --quiet -c - 2>/dev/null; then
  echo "cuda-header: $dir/cuda.h already present"
  exit 0
fi

# The package's address, from the archive's signed index of contrib and
# non-free, in a private apt state: the system's sources stay as they are.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
cat >"$work/nonfree.sources" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
apt=(-o "Dir::Etc::SourceList=$work/nonfree.sources" -o Dir::Etc::SourceParts=- \
  -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o APT::Sandbox::User=root)
apt-get "${apt[@]}" update -qq
url=$(apt-get "${apt[@]}" download --print-uris nvidia-cuda-dev | awk -F"'" 'NR==1 {print $2}')
if [ -z "$url" ]; then
  echo "cuda-header: nvidia-cuda-dev not found in the Debian archive's non-free component" >&2
  exit 1
fi

# GNU tar stops at the first match (--occurrence=1); curl and dpkg-deb then
# end on the closed pipe, which is expected here, so only tar's status
# counts, and their messages are shown only when it fails.
set +o pipefail
curl -fsSL "$url" 2>"$work/curl.err" | dpkg-deb --fsys-tarfile /dev/stdin 2>"$work/dpkg.err" |
  tar -x -C "$work" --occurrence=1 ./usr/include/cuda.h
status=${PIPESTATUS[2]}
set -o pipefail
if [ "$status" -ne 0 ] || [ ! -f "$work/usr/include/cuda.h" ]; then
  cat "$work/curl.err" "$work/dpkg.err" >&2
  echo "cuda-header: no usr/include/cuda.h read from $url" >&2
  exit 1
fi
got=$(sha256sum "$work/usr/include/cuda.h" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then
  echo "cuda-header: $url holds a cuda.h with sha256 $got, not $want: a new header needs" >&2
  echo "  go generate ./internal/cudalazy against it and this script's checksum updated" >&2
  exit 1
fi
mkdir -p "$dir"
install -m 0644 "$work/usr/include/cuda.h" "$dir/cuda.h"
echo "cuda-header: $dir/cuda.h from $(basename "$url")"
