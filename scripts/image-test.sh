#!/usr/bin/env bash
# Builds the container image (deploy/container/Containerfile) with buildah
# and runs the Kubernetes example from it as its Jobs are written: the
# commands, arguments and environment of deploy/kubernetes/*.yaml, the
# configs of its ConfigMap mounted at /etc/pathflow, the image's own user
# (65532), a read-only root file system and a /data volume owned by that
# user's group (fsGroup). Root only (CI runs it): it installs buildah,
# podman and debootstrap from Debian.
#
#   scripts/image-test.sh
#
# What differs from a cluster, and why:
# - Base images: this machine reaches no image registry, so the script
#   makes the two the Containerfile names from Debian's archive
#   (debootstrap, minbase) and the Go toolchain that runs it, and passes
#   them as GO_IMAGE and BASE_IMAGE; they are kept in the local image store
#   and reused by the next run.
# - The build stage mounts this machine's Go module and build caches and
#   runs with GOPROXY=off (as CI's Go steps do), so that it reaches no
#   module proxy and a rebuild compiles only what changed. The modules come
#   from go mod download here (offline once CI's first step has run it).
# - 4 shards instead of 64, one after another, and PATHFLOW_COMPUTE_BACKEND
#   auto (the CPU here) in both Jobs; one shard is first run exactly as
#   written (backend gpu), which on a machine without a GPU must exit 8.
# - The containers run with podman (runc, cgroupfs); where podman cannot
#   start one, the same commands run from the image's root file system with
#   chroot --userspec=65532:65532 (no read-only root then).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
start=$SECONDS

step() { printf '\n== image-test: %s\n' "$*"; }
fail() { echo "image-test: $*" >&2; exit 1; }

version=$(sed -n 's/^const Version = "\(.*\)"$/\1/p' internal/version/version.go)
tag=pathflow:$version
k8s=deploy/kubernetes

step "buildah, podman, runc, debootstrap (Debian)"
need=()
for p in buildah podman runc debootstrap; do command -v "$p" >/dev/null || need+=("$p"); done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
buildah --version
# The default store is overlay on /var/lib/containers; RUN steps run
# chrooted (no OCI runtime needed to build).
export BUILDAH_ISOLATION=chroot

step "base images from Debian's archive (kept once made)"
base=localhost/pathflow-ci/debian:bookworm-slim
goimg=localhost/pathflow-ci/golang:$(go env GOVERSION)-bookworm
work=$(mktemp -d /var/tmp/image-test.XXXXXX)
cleanup() {
  [ -n "${mounted:-}" ] && { umount "$mounted/data" 2>/dev/null || true; buildah umount "$runner" >/dev/null 2>&1 || true; }
  [ -n "${runner:-}" ] && buildah rm "$runner" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
if ! buildah inspect --type image "$base" >/dev/null 2>&1; then
  debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log"; fail "debootstrap failed"; }
  rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
  c=$(buildah from scratch)
  buildah copy --quiet "$c" "$work/rootfs" / >/dev/null
  buildah config --cmd /bin/bash "$c"
  buildah commit --quiet --rm "$c" "$base" >/dev/null
  rm -rf "$work/rootfs"
fi
if ! buildah inspect --type image "$goimg" >/dev/null 2>&1; then
  # As the golang image has it: gcc and libc headers for cgo, curl, the
  # toolchain in /usr/local/go, GOPATH /go.
  c=$(buildah from --pull=never "$base")
  buildah run "$c" -- sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc libc6-dev curl ca-certificates >/dev/null && rm -rf /var/lib/apt/lists/*'
  buildah copy --quiet "$c" "$(go env GOROOT)" /usr/local/go >/dev/null
  buildah config --env GOPATH=/go --env PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --workingdir /go "$c"
  buildah commit --quiet --rm "$c" "$goimg" >/dev/null
fi
buildah images --format '{{.Name}}:{{.Tag}} {{.Size}}' | grep pathflow-ci

step "build context: what .containerignore leaves in"
# npm's node_modules (235 MB once CI has installed the test readers),
# bin/, out/ and .git stay out; the rest is a few MB.
cat >"$work/Context" <<CONTEXT
FROM $base
COPY . /context
RUN kb=\$(du -sk /context | cut -f1) && echo "context: \$kb KiB" && \\
    bad=\$(find /context \\( -name node_modules -o -name .git -o -path /context/bin -o -path /context/out \\) -prune -print | head -5) && \\
    if [ -n "\$bad" ]; then echo "in the build context:" \$bad; exit 1; fi && \\
    if [ "\$kb" -gt 20480 ]; then echo "the build context is over 20 MiB"; exit 1; fi
CONTEXT
buildah build --pull=never --layers=false -f "$work/Context" . >"$work/context.log" 2>&1 ||
  { tail -20 "$work/context.log"; fail "the build context holds what .containerignore should leave out"; }
grep '^context:' "$work/context.log"

step "build $tag (deploy/container/Containerfile)"
t0=$SECONDS
go mod download
modcache=$(go env GOMODCACHE) gocache=$(go env GOCACHE)
mkdir -p "$gocache"
buildah build --pull=never --layers=false \
  --build-arg GO_IMAGE="$goimg" --build-arg BASE_IMAGE="$base" --build-arg GOPROXY=off \
  -v "$modcache:/go/pkg/mod" -v "$gocache:/root/.cache/go-build" \
  -f deploy/container/Containerfile -t "$tag" . >"$work/build.log" 2>&1 ||
  { tail -40 "$work/build.log"; fail "buildah build failed"; }
grep -E '^(STEP|COMMIT|cuda-header)' "$work/build.log" || true
echo "built $tag in $((SECONDS - t0)) s"
buildah images --format '{{.Name}}:{{.Tag}} {{.Size}}' "$tag"
user=$(buildah inspect --type image --format '{{.OCIv1.Config.User}}' "$tag")
[ "$user" = "65532:65532" ] || fail "$tag runs as '$user', want 65532:65532"
entry=$(buildah inspect --type image --format '{{.OCIv1.Config.Entrypoint}}' "$tag")
[ "$entry" = "[]" ] || fail "$tag has entrypoint $entry, want none (the Jobs give command)"
# Old images of this tag, left untagged by the rebuild.
buildah rmi --prune >/dev/null 2>&1 || true

# The Jobs' containers, read from the manifests: command and args are JSON
# arrays on one line; env is PATHFLOW_* name/value pairs.
manifest_array() { # FILE KEY -> the words, one a line
  sed -n "s/^ *$2: \\[\\(.*\\)\\]\$/\\1/p" "$k8s/$1" | head -1 | tr ',' '\n' |
    sed 's/^ *"//; s/"$//'
}
manifest_env() { # FILE -> NAME=VALUE lines
  awk '/- name: PATHFLOW_/ {n=$3} /value:/ && n {v=$2; gsub(/"/, "", v); print n "=" v; n=""}' "$k8s/$1"
}
configmap_key() { # KEY -> the ConfigMap's block for it
  awk -v k="  $1: |" '$0 == k {on=1; next} on && /^    / {print substr($0, 5); next} on && !/^ *$/ {on=0}' \
    "$k8s/pathflow-config.yaml"
}
image=$(sed -n 's/^ *image: //p' "$k8s"/pathflow-*.yaml | sort -u)
[ "$image" = "$tag" ] || fail "the Kubernetes Jobs name image(s) '$image', the build makes $tag"

data=$work/data
mkdir -p "$data/in" "$work/etc"
configmap_key ingest.yaml >"$work/etc/ingest.yaml"
configmap_key run.yaml >"$work/etc/run.yaml"
[ -s "$work/etc/ingest.yaml" ] && [ -s "$work/etc/run.yaml" ] || fail "no ingest.yaml or run.yaml in the ConfigMap"
# The input ingest.yaml names: a DIMACS grid, 30 x 30, both directions.
in=$(sed -n 's/^ *path: \(\/data\/.*\)$/\1/p' "$work/etc/ingest.yaml")
[ -n "$in" ] || fail "ingest.yaml names no input under /data"
awk 'BEGIN { s = 30; n = s * s; m = 4 * s * (s - 1); print "p sp", n, m
  for (r = 0; r < s; r++) for (c = 0; c < s; c++) { v = r * s + c + 1
    if (c + 1 < s) { w = 1 + (v * 7919) % 97; print "a", v, v + 1, w; print "a", v + 1, v, w }
    if (r + 1 < s) { w = 1 + (v * 104729) % 89; print "a", v, v + s, w; print "a", v + s, v, w } } }' |
  gzip -n >"$data${in#/data}"
# fsGroup: the volume is writable by group 65532.
chown -R 0:65532 "$data" && chmod -R g+rwX "$data" && find "$data" -type d -exec chmod g+s {} +

# run_job ENV_FILE_OR_- FILE [NAME=VALUE...] -- runs one Job's container
# with its manifest's command, args and env, the extra NAME=VALUE last;
# sets code to the exit status and leaves stdout and stderr in
# $work/last.out and $work/last.err.
podman_ok=0
mode=podman
podman_run() {
  podman --runtime runc --cgroup-manager cgroupfs run --rm --network none \
    --ulimit nofile=1024:1024 --ulimit nproc=4096:4096 \
    --read-only --read-only-tmpfs=false \
    -v "$data:/data" -v "$work/etc/ingest.yaml:/etc/pathflow/ingest.yaml:ro" \
    -v "$work/etc/run.yaml:/etc/pathflow/run.yaml:ro" "$@"
}
if podman_run --entrypoint /usr/bin/id "$tag" -u >"$work/id" 2>"$work/id.err"; then
  podman_ok=1
else
  cat "$work/id.err"
  echo "podman cannot start a container here: running from the image's root file system with chroot"
  mode=chroot
  runner=$(buildah from --pull=never "$tag")
  mounted=$(buildah mount "$runner")
  cp "$work/etc/ingest.yaml" "$work/etc/run.yaml" "$mounted/etc/pathflow/"
  mkdir -p "$mounted/data" && mount --bind "$data" "$mounted/data"
  chroot --userspec=65532:65532 "$mounted" /usr/bin/id -u >"$work/id"
fi
[ "$(cat "$work/id")" = 65532 ] || fail "the image's commands run as uid $(cat "$work/id"), want 65532"
echo "containers run with $mode, as uid $(cat "$work/id")"

run_job() {
  local file=$1; shift
  local -a cmd args env=()
  local i kv
  mapfile -t cmd < <(manifest_array "$file" command)
  mapfile -t args < <(manifest_array "$file" args)
  mapfile -t env < <(manifest_env "$file")
  env+=("$@")
  [ ${#cmd[@]} -gt 0 ] && [ ${#args[@]} -gt 0 ] || fail "$file: no command or args line"
  for i in "${!args[@]}"; do [ "${args[$i]}" = "$shards_written" ] && args[$i]=$shards; done
  echo "+ ${env[*]} ${cmd[*]} ${args[*]}"
  code=0
  if [ "$mode" = podman ]; then
    local -a e=()
    for kv in "${env[@]}"; do e+=(-e "$kv"); done
    podman_run "${e[@]}" --entrypoint "${cmd[0]}" "$tag" "${args[@]}" >"$work/last.out" 2>"$work/last.err" || code=$?
  else
    chroot --userspec=65532:65532 "$mounted" /usr/bin/env -i HOME=/home/pathflow \
      PATH=/usr/local/bin:/usr/bin:/bin "${env[@]}" /bin/sh -c 'cd /home/pathflow && exec "$@"' sh \
      "${cmd[@]}" "${args[@]}" >"$work/last.out" 2>"$work/last.err" || code=$?
  fi
}
expect() { # CODE what
  if [ "$code" -ne "$1" ]; then
    tail -20 "$work/last.err"; fail "$2: exit $code, want $1"
  fi
  echo "  exit $code: $(tail -1 "$work/last.err")"
}

# The shards Job's N, as written, and the 4 run here.
shards_written=$(manifest_env pathflow-shards.yaml | sed -n 's/^PATHFLOW_COMPUTE_SHARDS=//p')
shards=4

step "pathflow-ingest.yaml: $in -> /data/graph"
run_job pathflow-ingest.yaml
expect 0 "ingest"
[ "$(cat "$work/last.out")" = /data/graph ] || fail "ingest printed '$(cat "$work/last.out")', want /data/graph"
test -f "$data/graph/manifest.json" || fail "no /data/graph/manifest.json"

step "pathflow-shards.yaml as written (backend gpu) on a machine without a GPU: exit 8"
run_job pathflow-shards.yaml JOB_COMPLETION_INDEX=0
expect 8 "shard 0 with backend gpu"
grep -q 'no GPU can be used' "$work/last.err" || fail "exit 8 without its message"

step "pathflow-shards.yaml, $shards shards, backend auto (the CPU here)"
for ((i = 0; i < shards; i++)); do
  run_job pathflow-shards.yaml JOB_COMPLETION_INDEX=$i PATHFLOW_COMPUTE_SHARDS=$shards PATHFLOW_COMPUTE_BACKEND=auto
  expect 0 "shard $i"
done

step "pathflow-finalize.yaml, backend auto as the shards had"
run_job pathflow-finalize.yaml PATHFLOW_COMPUTE_BACKEND=auto
expect 0 "finalize"
test -f "$data/out/run/manifest.json" && test -f "$data/out/run/_SUCCESS" ||
  fail "finalize left no manifest.json and _SUCCESS in /data/out/run"
owners=$(find "$data/graph" "$data/out" -newer "$data${in#/data}" ! -uid 65532 | head -3)
[ -z "$owners" ] || fail "files not written by uid 65532: $owners"
echo "  /data/out/run: $(find "$data/out/run" -name '*.parquet' | wc -l) Parquet files, manifest.json and _SUCCESS"

if [ "$mode" = podman ]; then
  step "the image alone: compute on the embedded demo config (CMD)"
  out=$(podman --runtime runc --cgroup-manager cgroupfs run --rm --network none \
    --ulimit nofile=1024:1024 --ulimit nproc=4096:4096 "$tag" 2>"$work/last.err") ||
    { tail -5 "$work/last.err"; fail "the image's default command failed"; }
  [ "$out" = out/demo ] || fail "the demo printed '$out', want out/demo"
  echo "  exit 0: printed $out"
fi

echo
echo "image-test: passed ($mode, $tag, $((SECONDS - start)) s)"
