#!/usr/bin/env bash
# A 1,000 x 1,000 ch table on Delaware (the real OpenStreetMap network,
# (c) OpenStreetMap contributors, ODbL), travel time alone and travel time
# with length (-metrics length), alternated, on each backend: the compute
# stage from the manifest, and the compute stage with the write tail (the
# table written), then the medians and their ratios. The
# stored hierarchy of the ingest output carries the length, so both runs
# answer from it.
#
#   BIN=.gpu scripts/bench-metrics.sh DELAWARE_INGEST_DIR [ROUNDS]
#
# BIN holds the compute binary (-tags cuda for the GPU; gzipped is fine);
# BACKENDS (default "cpu gpu"); WORK (default /tmp/pathflow-metrics).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${BIN:-$here/bin}" && pwd)
[ -e "$bin/compute.gz" ] && gunzip -kf "$bin/compute.gz"
chmod +x "$bin/compute"
dir=${1:?usage: bench-metrics.sh DELAWARE_INGEST_DIR [ROUNDS]}
rounds=${2:-7}
work=${WORK:-/tmp/pathflow-metrics}
mkdir -p "$work"
n=$(tr -d '\n ' <"$dir/manifest.json" | grep -o '"n":[0-9]*' | head -1 | cut -d: -f2)
# 1,000 sources and 1,000 other targets, spread over the ids.
sources=$(seq 0 $((n / 1000)) $((n - 1)) | head -1000 | paste -sd,)
targets=$(seq $((n / 2000)) $((n / 1000)) $((n - 1)) | head -1000 | paste -sd,)
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $dir (n=$n)"
stage() { tr -d '\n ' <"$work/o/manifest.json" | grep -o "\"$1\":[0-9.e-]*" | head -1 | cut -d: -f2; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for backend in ${BACKENDS:-cpu gpu}; do
  : >"$work/plain.txt"
  : >"$work/metric.txt"
  : >"$work/plain-table.txt"
  : >"$work/metric-table.txt"
  for _ in $(seq "$rounds"); do
    for kind in plain metric; do
      extra=()
      [ "$kind" = metric ] && extra=(-metrics length)
      rm -rf "$work/o"
      if ! "$bin/compute" -quiet -input "$dir" -out "$work/o" -algorithm ch -backend "$backend" -parents=false \
        -sources "$sources" -targets "$targets" "${extra[@]}" >/dev/null 2>"$work/err.txt"; then
        echo "$backend $kind: failed: $(tail -1 "$work/err.txt")"
        continue 3
      fi
      stage compute >>"$work/$kind.txt"
      awk -v a="$(stage compute)" -v b="$(stage write_tail)" 'BEGIN {print a + b}' >>"$work/$kind-table.txt"
    done
  done
  p=$(median <"$work/plain.txt")
  m=$(median <"$work/metric.txt")
  echo "$backend: compute stage, time alone: $(paste -sd' ' "$work/plain.txt") s (median $p)"
  echo "$backend: compute stage, time and length: $(paste -sd' ' "$work/metric.txt") s (median $m)"
  echo "$backend: ratio of the medians $(awk -v a="$m" -v b="$p" 'BEGIN {printf "%.2f", a / b}')"
  p=$(median <"$work/plain-table.txt")
  m=$(median <"$work/metric-table.txt")
  echo "$backend: compute stage and write tail, median: time alone $p s, time and length $m s, ratio $(awk -v a="$m" -v b="$p" 'BEGIN {printf "%.2f", a / b}')"
done
