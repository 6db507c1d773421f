#!/usr/bin/env bash
# Times reloading an ingested grid, the scheduled job's case: the ingest
# (with and without the reload file graph.csr), then whole one-source
# compute processes on each ingest output, per backend. One line per
# figure: wall seconds of the process, the manifest's stages (load = the
# load stage alone; csr = building the rows, near zero when reloaded),
# peak RSS, and the outputs' sizes. Both outputs' result files are
# compared byte for byte.
#
#   scripts/bench-reload.sh [side] [backend ...]     # default: 2000 cpu
#   scripts/bench-reload.sh 4900 gpu cpu             # the GPU host's case
#
# INGEST and COMPUTE name the binaries (default: built here with go, with
# -tags cuda when gpu is among the backends); RUNS (default 3) is the
# number of compute runs per case; WORK (default /tmp/pathflow-reload)
# holds the ingest outputs, which need about 30 bytes per arc.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
side=${1:-2000}
shift || true
backends=("${@:-cpu}")
[ ${#backends[@]} -eq 0 ] && backends=(cpu)
runs=${RUNS:-3}
work=${WORK:-/tmp/pathflow-reload}
mkdir -p "$work"

if [ -z "${INGEST:-}" ] || [ -z "${COMPUTE:-}" ]; then
  tags=()
  [[ " ${backends[*]} " == *" gpu "* ]] && tags=(-tags cuda)
  (cd "$here" && go build "${tags[@]}" -o "$work/bin/" ./cmd/ingest ./cmd/compute) || exit 1
fi
ingest=${INGEST:-$work/bin/ingest}
compute=${COMPUTE:-$work/bin/compute}

spec="grid:side=$side,lo=1,hi=1000,seed=1"
echo "machine $(nproc) cores, $(uname -m), load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
echo "binaries $ingest $compute; input -generate $spec"

# seconds runs a command and prints its wall time in seconds.
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/err.txt" || { echo "failed: $*" >&2; tail -5 "$work/err.txt" >&2; return 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}'
}

# stage prints one stage of a manifest's stages_seconds, or "-".
stage() {
  tr -d '\n ' <"$1" | grep -o '"stages_seconds":{[^}]*}' | grep -o "\"$2\":[0-9.e-]*" | head -1 | cut -d: -f2 | awk '{if ($0 == "") print "-"; else printf "%.3f", $0}'
}

for layout in reload tables; do
  out=$work/g$side-$layout
  rm -rf "$out"
  flag=true
  [ $layout = tables ] && flag=false
  wall=$(seconds "$ingest" -generate "$spec" -out "$out" -reload-file=$flag -quiet) || exit 1
  printf 'ingest %-6s side %s: wall %s s, folder %s bytes, graph.csr %s bytes\n' "$layout" "$side" "$wall" \
    "$(du -sb "$out" | cut -f1)" "$(stat -c %s "$out/graph.csr" 2>/dev/null || echo 0)"
done

for be in "${backends[@]}"; do
  for layout in reload tables; do
    for i in $(seq "$runs"); do
      o=$work/o-$be-$layout
      rm -rf "$o"
      wall=$(seconds "$compute" -input "$work/g$side-$layout" -sources 0 -backend "$be" -out "$o" -quiet) || continue
      m=$o/manifest.json
      rss=$(grep -o '"peak_rss_bytes": *[0-9]*' "$m" | grep -o '[0-9]*$')
      printf 'compute %-3s %-6s side %s run %d: wall %s s, load %s s, csr %s s, backend %s s, compute %s s, write_tail %s s, peak rss %.2f GB\n' \
        "$be" "$layout" "$side" "$i" "$wall" "$(stage "$m" load)" "$(stage "$m" csr)" "$(stage "$m" backend)" \
        "$(stage "$m" compute)" "$(stage "$m" write_tail)" "$(awk -v r="${rss:-0}" 'BEGIN {print r / 1e9}')"
    done
  done
  same=identical
  for f in $(cd "$work/o-$be-reload" && find . -type f ! -name manifest.json); do
    cmp -s "$work/o-$be-reload/$f" "$work/o-$be-tables/$f" || same="DIFFERENT ($f)"
  done
  echo "compute $be outputs from the two layouts: $same"
done
