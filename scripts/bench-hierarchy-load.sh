#!/usr/bin/env bash
# Times what loading a stored contraction hierarchy costs a whole compute
# process: one ingest of the generated road-like graph road:side=SIDE,seed=1
# with ingest.hierarchy: on, then compute -algorithm ch processes from it,
# each line the process's wall and CPU seconds and peak RSS (/usr/bin/time)
# and the manifest's stages (stages_seconds: load, hierarchy, compute) and
# stored_hierarchy facts (files read, check_s, load_s).
#
#   mapped   the ingest output as written: compute maps hierarchy.chf
#   tables   the same folder as an older ingest left it (hierarchy.chf and
#            its manifest entry removed): compute decodes and validates the
#            three Parquet tables, as every run did before hierarchy.chf
#
# The queries: -sources 0 -targets 1-1000 (the issue's, where loading
# dominates) and -sources 0-999 -targets 1000-1999, each RUNS times
# (default 3), the CPU backend with one worker per core.
#
#   go build -o bin/ingest ./cmd/ingest && go build -o bin/compute ./cmd/compute
#   scripts/bench-hierarchy-load.sh [SIDE]     # default 4900: 24M vertices
#
# INGEST, COMPUTE: the binaries (default bin/ingest, bin/compute); BACKEND
# (default cpu; "cpu gpu" runs every query on each, from one ingest); WORK: the scratch folder (default
# /tmp/pathflow-hierarchy-load; about 3 GB and 25 GB of memory at side
# 4900, 150 MB at 1024).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ingest=${INGEST:-$here/bin/ingest}
compute=${COMPUTE:-$here/bin/compute}
work=${WORK:-/tmp/pathflow-hierarchy-load}
runs=${RUNS:-3}
backends=${BACKEND:-cpu}
side=${1:-4900}
mkdir -p "$work"

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -m), load average $(cut -d' ' -f1-3 /proc/loadavg), road:side=$side,seed=1, backends $backends"

g=$work/road$side
rm -rf "$g" "$g-tables"
/usr/bin/time -f "ingest: wall %e s, cpu %U+%S s, peak rss %M KB" "$ingest" -quiet -generate "road:side=$side,seed=1" -hierarchy on -out "$g" || exit 1
ls -l "$g"
# The older layout: the tables alone, hierarchy.chf unlisted and gone.
cp -r "$g" "$g-tables"
rm "$g-tables/hierarchy.chf"
python3 - "$g-tables/manifest.json" <<'PY'
import json, sys
p = sys.argv[1]
m = json.load(open(p))
m["files"] = [f for f in m["files"] if f["path"] != "hierarchy.chf"]
m["hierarchy"]["files"] = [f for f in m["hierarchy"]["files"] if f != "hierarchy.chf"]
json.dump(m, open(p, "w"), indent=2)
PY

report() { # label: one line from $work/time.txt and $work/o/manifest.json
  python3 - "$work/o/manifest.json" "$1" $(cat "$work/time.txt") <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
label, wall, user, sys_, rss = sys.argv[2:]
st = m["stages_seconds"]
s = (m.get("run_facts") or {}).get("stored_hierarchy") or {}
print(f"{label}: wall {float(wall):.2f} s, cpu {float(user) + float(sys_):.2f} s, peak rss {int(rss) // 1024} MiB, "
      f"algorithm {m['algorithm']}, stages load {st.get('load', 0):.3f} s, hierarchy {st.get('hierarchy', 0):.3f} s "
      f"(check {s.get('check_s', 0):.3f}, load {s.get('load_s', 0):.3f}, files {','.join(s.get('files', []))}), "
      f"compute {st.get('compute', 0):.3f} s")
PY
}

for backend in $backends; do
for query in "1x1000 -sources 0 -targets 1-1000" "1000x1000 -sources 0-999 -targets 1000-1999"; do
  read -r qname qargs <<<"$query"
  qname="$qname $backend"
  for run in $(seq "$runs"); do
    for layout in mapped tables; do
      input=$g; [ "$layout" = tables ] && input=$g-tables
      rm -rf "$work/o"
      # shellcheck disable=SC2086
      if /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$compute" -quiet -input "$input" -backend "$backend" \
           -algorithm ch $qargs -out "$work/o" >/dev/null 2>"$work/err.txt"; then
        report "$qname $layout run $run"
      else
        echo "$qname $layout run $run: failed"; tail -5 "$work/err.txt"
      fi
    done
  done
done
done
rm -rf "$g" "$g-tables" "$work/o"
