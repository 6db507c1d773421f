#!/usr/bin/env bash
# Measures what sharding costs: the total CPU time (user + sys, graph
# loading included) of N shards run one after another against the one-shot
# run of the same config (docs/sharding.md records the figures).
#
#   scripts/shard-overhead.sh [N] [compute flags...]
#
# Default: 4 shards of 256 sources on a generated 512 x 512 grid, CPU
# backend, distances and parents as Parquet. A rerun of a complete shard
# is a no-op, so each repeat of a shard removes the shard's marker first.
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

# cpu_seconds ARGS...: user + sys seconds of a compute process, the least
# of REPEAT runs (default 3): other work on a shared machine only adds.
cpu_seconds() {
  local best=
  for _ in $(seq "${REPEAT:-3}"); do
    rm -rf "$work/one"
    /usr/bin/time -f "%U %S" -o "$work/time" "$work/compute" -quiet "$@" >/dev/null
    best=$(awk -v b="$best" '{s = $1 + $2; if (b == "" || s < b) b = s; printf "%.2f", b}' "$work/time")
  done
  echo "$best"
}

one=$(cpu_seconds "${args[@]}" -out "$work/one")
total=0
for i in $(seq 0 $((shards - 1))); do
  s=$(REPEAT=1 cpu_seconds "${args[@]}" -out "$work/dataset" -shard "$i/$shards")
  for _ in $(seq 2 "${REPEAT:-3}"); do
    rm -f "$work/dataset/_shards/shard=$(printf %04d "$i")/_SUCCESS"
    s=$(awk -v a="$s" -v b="$(REPEAT=1 cpu_seconds "${args[@]}" -out "$work/dataset" -shard "$i/$shards")" 'BEGIN {printf "%.2f", (b < a ? b : a)}')
  done
  echo "shard $i/$shards: $s s"
  total=$(awk -v a="$total" -v b="$s" 'BEGIN {printf "%.2f", a + b}')
done
fin=$(REPEAT=1 cpu_seconds "${args[@]}" -out "$work/dataset" -finalize -shards "$shards")
echo "one-shot: $one s CPU"
echo "$shards shards: $total s CPU (+ finalize $fin s)"
awk -v a="$one" -v b="$total" -v f="$fin" 'BEGIN {printf "overhead: %+.1f%% (%+.1f%% with finalize)\n", 100 * (b / a - 1), 100 * ((b + f) / a - 1)}'
