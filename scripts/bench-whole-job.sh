#!/usr/bin/env bash
# Whole compute processes on a generated 24M-vertex road-like graph
# (road:side=SIDE,seed=1; not a real network), the shapes of the issue
# "The whole job at the speed of its kernels": a 1,000 x 1,000 table with
# ch on each backend, 64 whole ch trees with their rows on the CPU (peak
# memory), 1,024 whole trees summary only and one whole row on each
# backend. One line per process: wall, cpu and peak RSS (/usr/bin/time),
# then the manifest's stages and the algorithm and backend it ran.
#
#   BIN=.gpu scripts/bench-whole-job.sh [SIDE]     # default 4900
#
# BIN holds the compute and ingest binaries (-tags cuda for the GPU runs;
# scripts/build-gpu.sh makes them, gzipped). WORK (default
# /tmp/pathflow-whole-job) needs about 4 GB at side 4900; BACKENDS
# (default "cpu gpu").
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${BIN:-$here/bin}" && pwd)
for f in "$bin"/compute.gz "$bin"/ingest.gz; do [ -e "$f" ] && gunzip -kf "$f"; done
chmod +x "$bin/compute" "$bin/ingest"
side=${1:-4900}
work=${WORK:-/tmp/pathflow-whole-job}
backends=${BACKENDS:-cpu gpu}
mkdir -p "$work"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, road:side=$side,seed=1"
g=$work/road$side
# targets: 1,000 vertices from the middle of the id range
targets="$((side * side / 2))-$((side * side / 2 + 999))"
rm -rf "$g"
/usr/bin/time -f "ingest: wall %e s, cpu %U+%S s, peak rss %M KB" "$bin/ingest" -quiet -generate "road:side=$side,seed=1" \
  -hierarchy on -hierarchy-tables=false -out "$g" || exit 1

run() { # label, then compute's arguments
  local label=$1; shift
  rm -rf "$work/o"
  if /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$bin/compute" -quiet -input "$g" -out "$work/o" "$@" >/dev/null 2>"$work/err.txt"; then
    read -r wall user sys rss <"$work/time.txt"
    printf '%s: wall %s s, cpu %s s, peak rss %d MiB | %s | %s %s\n' "$label" "$wall" "$(awk -v a="$user" -v b="$sys" 'BEGIN {print a + b}')" $((rss / 1024)) \
      "$(tr -d '\n ' <"$work/o/manifest.json" | grep -o '"stages_seconds":{[^}]*}')" \
      "$(tr -d '\n ' <"$work/o/manifest.json" | grep -o '"backend":"[a-z]*"')" \
      "$(tr -d '\n ' <"$work/o/manifest.json" | grep -o '"algorithm":"[a-z-]*"')"
    du -sh "$work/o" | cut -f1
  else
    echo "$label: failed"; tail -3 "$work/err.txt"
  fi
}

for backend in $backends; do
  for r in 1 2; do
    run "ch 1000x1000 $backend run $r" -backend "$backend" -algorithm ch -sources 0-999 -targets "$targets"
  done
  run "1024 whole trees, summary only, $backend" -backend "$backend" -algorithm ch -sources 0-1023 -summary -distances=false
  run "one source, whole row, $backend" -backend "$backend" -sources 0
done
run "64 whole trees with rows, ch, cpu" -backend cpu -algorithm ch -sources 0-63
rm -rf "$g" "$work/o"
