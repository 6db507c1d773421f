#!/usr/bin/env bash
# Times a contraction hierarchy stored at ingest against one built in each
# compute run, on the synthetic road network road:side=SIDE,seed=1
# (default SIDE 1024: 1,048,576 vertices; docs/road-networks.md).
#
#   ingest-on    ingest with ingest.hierarchy: on (the build, its write)
#   ingest-off   ingest with ingest.hierarchy: off, for the difference
#   stored-200   compute -algorithm ch, 200 sources x 200 targets (sources
#                0-199, targets the 200 vertices from n/2 on: the middle
#                row), answered from the stored hierarchy
#   built-200    the same from the folder without one: built in the run
#   auto-200     the same as stored-200 with compute.algorithm: auto
#   stored-1000  compute -algorithm ch, 1,000 random sources x 1,000 random
#                targets (seed 1), from the stored hierarchy
#   built-1000   the same, built in the run
#
# One line per figure: wall and CPU seconds of the whole process
# (/usr/bin/time), peak RSS, and the manifest's stages: for ingest the
# build and write of the hierarchy, for compute load (the graph),
# hierarchy (check and read the stored one), compute (the run, a build
# included) and the build's own seconds. The CPU backend with one worker
# per core.
#
#   go build -o bin/ingest ./cmd/ingest && go build -o bin/compute ./cmd/compute
#   scripts/bench-road.sh [SIDE] > results.txt
#
# INGEST, COMPUTE: the binaries (default bin/ingest, bin/compute); WORK:
# the scratch folder (default /tmp/pathflow-road-bench, about 150 MB).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ingest=${INGEST:-$here/bin/ingest}
compute=${COMPUTE:-$here/bin/compute}
work=${WORK:-/tmp/pathflow-road-bench}
side=${1:-1024}
n=$((side * side))
road=road:side=$side,seed=1
mkdir -p "$work"

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -m), load average $(cut -d' ' -f1-3 /proc/loadavg), $road"

timed() { # name, binary, arguments: runs it under /usr/bin/time into $work/name
  local name=$1; shift
  rm -rf "${work:?}/$name"
  if ! /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$@" -out "$work/$name" -quiet >/dev/null 2>"$work/err.txt"; then
    echo "$name: failed"; tail -5 "$work/err.txt"; return 1
  fi
}

report() { # name: one line from $work/time.txt and the manifest
  python3 - "$work/$1/manifest.json" "$1" $(cat "$work/time.txt") <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
name, wall, user, sys_, rss = sys.argv[2:]
line = f"{name}: wall {float(wall):.2f} s, cpu {float(user) + float(sys_):.2f} s, peak rss {int(rss) // 1024} MiB"
h = m.get("hierarchy")
if h is not None:  # an ingest manifest
    line += f", hierarchy stored {h['stored']}"
    if h["stored"]:
        size = sum(f["bytes"] for f in m["files"] if f["path"].startswith("hierarchy"))
        line += (f", build {h['build_s']:.2f} s, write {h['write_s']:.2f} s, {size / 1e6:.1f} MB, "
                 f"{h['shortcuts']} shortcuts, {h['rounds']} rounds")
else:
    st, facts = m["stages_seconds"], m.get("run_facts") or {}
    line += (f", algorithm {m['algorithm']}, stages load {st.get('load', 0):.2f} s, "
             f"hierarchy {st.get('hierarchy', 0):.2f} s, compute {st.get('compute', 0):.2f} s")
    if "hierarchy" in facts:
        line += f", of which the build {facts['hierarchy']['build_s']:.2f} s"
    if "stored_hierarchy" in facts:
        s = facts["stored_hierarchy"]
        line += f" (stored: check {s['check_s']:.2f} s, read {s['load_s']:.2f} s)"
print(line)
PY
}

timed ingest-on "$ingest" -generate "$road" -hierarchy on && report ingest-on
timed ingest-off "$ingest" -generate "$road" -hierarchy off && report ingest-off

mid=$((n / 2))
od200=(-sources 0-199 -targets "$mid-$((mid + 199))")
read -r rsources rtargets < <(python3 -c "
import random
r = random.Random(1)
print(','.join(map(str, r.sample(range($n), 1000))), ','.join(map(str, r.sample(range($n), 1000))))")
od1000=(-sources "$rsources" -targets "$rtargets")

for spec in "stored-200 ingest-on ch od200" "built-200 ingest-off ch od200" "auto-200 ingest-on auto od200" \
            "stored-1000 ingest-on ch od1000" "built-1000 ingest-off ch od1000"; do
  read -r name input alg od <<<"$spec"
  declare -n args=$od
  timed "$name" "$compute" -input "$work/$input" -backend cpu -algorithm "$alg" "${args[@]}" && report "$name"
  unset -n args
done
