#!/usr/bin/env bash
# Times whole compute processes, the way a scheduler runs them: wall time
# and peak RSS (the manifest's peak_rss_bytes), the manifest's stages, and the output's rows and
# bytes. Runs on a GPU machine from the repository root after
# scripts/build-gpu.sh built .gpu/ (or with COMPUTE=path/to/compute).
#
#   scripts/bench-e2e.sh [gpu|cpu|all] > results.txt
#
# The figures go to docs/performance.md with the device, date and command.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
compute=${COMPUTE:-$here/.gpu/compute}
[ -x "$compute" ] || { gunzip -kf "$compute.gz" && chmod +x "$compute"; }
data=${PATHFLOW_DATASETS:-$here/.gpu/datasets}
work=${WORK:-/tmp/pathflow-bench}
which=${1:-all}

run() { # name, then compute's arguments
  local name=$1; shift
  local out=$work/$name
  rm -rf "$out"
  local t0 t1 rc wall rss
  t0=$(date +%s.%N)
  "$compute" -out "$out" -quiet "$@" 2>"$work/err.txt"
  rc=$?
  t1=$(date +%s.%N)
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')
  if [ $rc -ne 0 ]; then
    echo "$name: exit $rc"; tail -5 "$work/err.txt"; return
  fi
  local rows bytes stages
  rows=$(grep -o '"rows": *[0-9]*' "$out/manifest.json" | awk -F: '{s+=$2} END {print s}')
  bytes=$(du -sb "$out" | cut -f1)
  stages=$(tr -d '\n ' <"$out/manifest.json" | grep -o '"stages_seconds":{[^}]*}')
  rss=$(grep -o '"peak_rss_bytes": *[0-9]*' "$out/manifest.json" | grep -o '[0-9]*$')
  printf '%-30s wall %6.2f s  rss %6.2f GB  rows %12d  bytes %11d  %s\n' \
    "$name" "$wall" "$(awk -v r="${rss:-0}" 'BEGIN {print r / 1073741824}')" "$rows" "$bytes" "$stages"
  rm -rf "$out"
}

mkdir -p "$work"
nproc; date -u
grid512=(-generate grid:side=512,lo=1,hi=1000,seed=1 -sources 0-1023 -parents=false)
if [ "$which" != cpu ]; then
  g30=(-input "$data/p2p-Gnutella30.txt" -weights hash -algorithm floyd-warshall -sources all)
  run g30-apsp-parents-parquet "${g30[@]}" -backend gpu
  run g30-apsp-parents-arrow "${g30[@]}" -backend gpu -output-format arrow
  run g30-apsp-parents-arrow-lz4 "${g30[@]}" -backend gpu -output-format arrow -compression lz4
  run g30-apsp-parquet-zstd "${g30[@]}" -backend gpu -compression zstd
  run g30-apsp-wide "${g30[@]}" -backend gpu -layout wide -parents=false
  run g30-apsp-distmatrix "${g30[@]}" -backend gpu -output-format distmatrix -parents=false
  grid4900=(-generate grid:side=4900,lo=1,hi=1000,seed=1 -sources 0)
  run grid4900-1src-parquet "${grid4900[@]}" -backend gpu
  run grid4900-1src-arrow "${grid4900[@]}" -backend gpu -output-format arrow
  run grid512-1024src-parquet "${grid512[@]}" -backend gpu
  run grid512-1024src-arrow "${grid512[@]}" -backend gpu -output-format arrow
  run grid512-1024src-arrow-lz4 "${grid512[@]}" -backend gpu -output-format arrow -compression lz4
  run grid512-1024src-cutoff "${grid512[@]}" -backend gpu -max-distance 50000
fi
if [ "$which" != gpu ]; then
  run cpu-grid512-64src-dijkstra -generate grid:side=512,lo=1,hi=1000,seed=1 -sources 0-63 -backend cpu -algorithm dijkstra
  run cpu-g04-johnson -input "$data/p2p-Gnutella04.txt" -weights hash -algorithm johnson -sources all -backend cpu
  run cpu-grid512-1024src-dijkstra "${grid512[@]}" -backend cpu -algorithm dijkstra
fi
