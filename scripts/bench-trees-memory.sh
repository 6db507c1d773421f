#!/usr/bin/env bash
# Peak memory of 64 whole ch trees with their rows on the CPU, 24M vertices.
#
# Usage: scripts/bench-trees-memory.sh [WORK_DIR]
#
# Builds ingest and compute from this checkout, generates the 24M-vertex
# road-like graph with its hierarchy (road:side=4900,seed=1; about 70 s
# and 9 GB on 16 cores), then runs
#   compute -input G -algorithm ch -backend cpu -sources 0-63 -workers 16 -out O -quiet
# under /usr/bin/time -v and prints wall, CPU, peak RSS and the memory
# plan the run reported (run_facts.tree_memory in its manifest). The
# graph is kept in WORK_DIR (default /tmp/trees-memory) and reused by a
# second call. Needs Go, python3 and GNU time; about 40 GB of disk.
set -euo pipefail

work=${1:-/tmp/trees-memory}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
(cd "$root" && go build -o "$work/ingest" ./cmd/ingest && go build -o "$work/compute" ./cmd/compute)

if [ ! -f "$work/g24m/manifest.json" ]; then
	rm -rf "$work/g24m"
	/usr/bin/time -v "$work/ingest" -generate road:side=4900,seed=1 -hierarchy on -out "$work/g24m" 2> "$work/ingest.time"
	grep -E "Elapsed|Maximum resident" "$work/ingest.time"
fi

rm -rf "$work/out"
/usr/bin/time -v "$work/compute" -input "$work/g24m" -algorithm ch -backend cpu -sources 0-63 -workers 16 \
	-out "$work/out" -quiet 2> "$work/compute.time"
grep -E "Elapsed|User time|System time|Maximum resident" "$work/compute.time"
python3 - "$work/out/manifest.json" <<'PY'
import json, sys
facts = json.load(open(sys.argv[1])).get("run_facts", {})
print("tree_memory:", facts.get("tree_memory"))
PY
