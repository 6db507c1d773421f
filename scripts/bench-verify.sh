#!/usr/bin/env bash
# Times what checking an ingest output against its manifest costs, at
# scale: one ingest of a generated road-like graph with a hierarchy, whole
# compute processes from it (dijkstra and ch, stage seconds from their
# manifests), then BenchmarkLoadIngestOutput (each part loaded verified
# and unverified). For a host without Go, such as the GPU machine, build
# the binaries first (scripts/build-gpu.sh, plus the ingest command) and
# copy this script beside them.
#
#   BIN=.gpu scripts/bench-verify.sh [side]     # default side 4900: 24M vertices
#
# BIN holds compute, ingest and compute.test (or their .gz); OUT (default
# $BIN/out) receives verify-bench.log. Needs about 25 GB of memory and 3 GB
# of disk at side 4900.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${BIN:-$here/.gpu}" && pwd)
OUT=${OUT:-$bin/out}; mkdir -p "$OUT"
for f in "$bin"/*.gz; do [ -e "$f" ] && gunzip -kf "$f"; done
chmod +x "$bin"/compute "$bin"/ingest "$bin"/compute.test
side=${1:-4900}
work=${WORK:-/tmp/pathflow-verify}
{
  date -u; nproc; free -g | head -2
  g=$work/road$side
  rm -rf "$g"
  /usr/bin/time -f "ingest wall %e s, cpu %U+%S s, max RSS %M KB" "$bin/ingest" -quiet -generate "road:side=$side,seed=1" -hierarchy on -out "$g"
  ls -la "$g"
  for run in 1 2; do
    for alg in dijkstra ch; do
      rm -rf "$work/o"
      /usr/bin/time -f "compute $alg (run $run) wall %e s, cpu %U+%S s, max RSS %M KB" \
        "$bin/compute" -quiet -input "$g" -backend cpu -algorithm $alg -sources 0 -targets 1-1000 -out "$work/o" >/dev/null
      tr -d '\n ' <"$work/o/manifest.json" | grep -o '"stages_seconds":{[^}]*}'; echo
      tr -d '\n ' <"$work/o/manifest.json" | grep -o '"stored_hierarchy":{[^}]*}'; echo
    done
  done
  rm -rf "$g" "$work/o"
  cd "$here/pipeline/compute" && BENCH_ROAD_SIDE=$side "$bin/compute.test" -test.run '^$' -test.bench 'LoadIngestOutput' -test.benchtime "${BENCHTIME:-2x}" -test.timeout 9m
} 2>&1 | tee "$OUT/verify-bench.log"
