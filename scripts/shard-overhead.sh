#!/usr/bin/env bash
# Measures what sharding costs: the total CPU time (user + sys, graph
# loading included) of N shards run one after another against the one-shot
# run of the same config (docs/sharding.md records the figures).
#
#   scripts/shard-overhead.sh [N] [compute flags...]
#
# Default: 4 shards of 256 sources on a generated 512 x 512 grid, CPU
# backend, distances and parents as Parquet.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
shards=${1:-4}
shift || true
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-generate grid:side=512,lo=1,hi=1000,seed=1 -backend cpu -sources 0-255)
work=$(mktemp -d /tmp/pathflow-overhead.XXXXXX)
trap 'rm -rf "$work"' EXIT
go build -o "$work/compute" ./cmd/compute

# cpu_seconds ARGS...: user + sys seconds of one compute process.
cpu_seconds() {
  /usr/bin/time -f "%U %S" -o "$work/time" "$work/compute" -quiet "$@" >/dev/null
  awk '{printf "%.2f", $1 + $2}' "$work/time"
}

one=$(cpu_seconds "${args[@]}" -out "$work/one")
total=0
for i in $(seq 0 $((shards - 1))); do
  s=$(cpu_seconds "${args[@]}" -out "$work/dataset" -shard "$i/$shards")
  echo "shard $i/$shards: $s s"
  total=$(awk -v a="$total" -v b="$s" 'BEGIN {printf "%.2f", a + b}')
done
fin=$(cpu_seconds "${args[@]}" -out "$work/dataset" -finalize -shards "$shards")
echo "one-shot: $one s CPU"
echo "$shards shards: $total s CPU (+ finalize $fin s)"
awk -v a="$one" -v b="$total" -v f="$fin" 'BEGIN {printf "overhead: %+.1f%% (%+.1f%% with finalize)\n", 100 * (b / a - 1), 100 * ((b + f) / a - 1)}'
