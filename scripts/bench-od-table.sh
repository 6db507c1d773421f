#!/usr/bin/env bash
# Times a 1,000 x 1,000 origin-destination table on the CPU: sources 0-999,
# targets 131072-132071 (rows 256 and 257) of the generated 512 x 512 grid,
# Dijkstra. Three ways:
#   targets       the run as configured: rows narrowed to the targets, each
#                 search stopped once its last target is settled;
#   no-stop       the same with compute.paths set to one pair, which makes the
#                 backend compute whole rows (the pipeline narrows them after
#                 reading the path): the target stop disabled;
#   single xN     N single-source processes (sources 0..N-1, default 20),
#                 the way a loop over sources would run, to estimate 1,000.
# For each: wall and CPU seconds of the whole process (/usr/bin/time), the
# manifest's compute stage, peak RSS and the rows written.
#
#   go build -o bin/compute ./cmd/compute
#   scripts/bench-od-table.sh [targets|no-stop|single|all] > results.txt
#
# The figures go to docs/performance.md with the machine, date and command.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
compute=${COMPUTE:-$here/bin/compute}
work=${WORK:-/tmp/pathflow-od-bench}
which=${1:-all}
singles=${SINGLES:-20}
grid=grid:side=512,lo=1,hi=1000,seed=1
mkdir -p "$work"

run() { # name, then compute's arguments
  local name=$1; shift
  local out=$work/$name
  rm -rf "$out"
  if ! /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" \
      "$compute" -generate "$grid" -backend cpu -algorithm dijkstra -out "$out" -quiet "$@" >/dev/null 2>"$work/err.txt"; then
    echo "$name: failed"; tail -5 "$work/err.txt"; return 1
  fi
  read -r wall user sys rss <"$work/time.txt"
  python3 - "$out/manifest.json" "$name" "$wall" "$user" "$sys" "$rss" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
name, wall, user, sys_, rss = sys.argv[2:]
rows = sum(f.get("rows", 0) for f in m["files"] if "/distances/" in "/" + f["path"])
print(f"{name}: wall {float(wall):.2f} s, cpu {float(user) + float(sys_):.2f} s, "
      f"compute stage {m['stages_seconds']['compute']:.3f} s, peak rss {int(rss) // 1024} MiB, rows {rows}")
PY
}

od=(-sources 0-999 -targets 131072-132071)
case $which in targets | all) run targets "${od[@]}" ;; esac
case $which in no-stop | all) run no-stop "${od[@]}" -paths 0-131072 ;; esac
case $which in single | all)
  start=$(date +%s.%N)
  for s in $(seq 0 $((singles - 1))); do
    run "single-$s" -sources "$s" -targets 131072-132071 >"$work/single-$s.txt" || exit 1
  done
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" -v n="$singles" \
    'BEGIN {printf "single x%d: wall %.2f s, %.3f s per source, 1,000 sources about %.0f s\n", n, b - a, (b - a) / n, 1000 * (b - a) / n}'
  cat "$work"/single-*.txt | awk '{cpu += $6; st += $10} END {printf "single: cpu %.2f s, compute stages %.3f s in all\n", cpu, st}'
  ;;
esac
