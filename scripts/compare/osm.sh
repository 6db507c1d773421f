#!/bin/sh
# Sets pathflow's OpenStreetMap ingest beside RoutingKit's OSM car loader on
# one extract (docs/road-networks.md, "Beside RoutingKit on OpenStreetMap"):
# load time and memory of each, RoutingKit's contraction hierarchy on its own
# graph, and the travel times of the two graphs between the same vertices.
# Run from the root of a pathflow checkout whose ingest reads .osm.pbf:
#
#   scripts/compare/osm.sh WORKDIR ROUTINGKIT_DIR [INPUT.osm.pbf]
#
# WORKDIR gets the binaries, both tools' graphs and one log per run;
# ROUTINGKIT_DIR is a RoutingKit source tree (not part of this repository).
# INPUT defaults to the Delaware extract in github.com/paulmach/osm's
# testdata (OpenStreetMap data (c) OpenStreetMap contributors, ODbL).
# INGEST, if set in the environment, is the ingest binary to time instead
# of one built from this checkout's cmd/ingest.
#
# Each load is run twice, one after the other, under /usr/bin/time -v; the
# table keeps the run of lower wall time (the other is in its log), since
# on a shared machine the slower run mostly measures the neighbours.
# Prints a markdown table at the end, with the machine and the date.
set -eu
usage='usage: osm.sh WORKDIR ROUTINGKIT_DIR [INPUT.osm.pbf]'
work=${1:?$usage}
rk=${2:?$usage}
pbf=${3:-$(go list -m -f '{{.Dir}}' github.com/paulmach/osm)/testdata/delaware-latest.osm.pbf}
here=$(cd "$(dirname "$0")" && pwd)
[ -x /usr/bin/time ] || {
	echo "osm.sh: /usr/bin/time is missing (Debian: apt-get install time)" >&2
	exit 1
}
mkdir -p "$work"
work=$(cd "$work" && pwd)
rows=$work/rows.md
: >"$rows"

"$here/routingkit/build.sh" "$rk" "$work/ch_table"
ingest=${INGEST:-$work/ingest}
[ -n "${INGEST:-}" ] || go build -o "$ingest" ./cmd/ingest
go build -o "$work/pathflow_table" "$here/pathflow_table.go"

# field LOG NAME: one number from a /usr/bin/time -v log; the wall clock
# (h:mm:ss or m:ss) in seconds, the resident set in MB.
field() {
	case $2 in
	wall) sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1" |
		awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' ;;
	user) sed -n 's/.*User time (seconds): //p' "$1" ;;
	sys) sed -n 's/.*System time (seconds): //p' "$1" ;;
	rss) sed -n 's/.*Maximum resident set size (kbytes): //p' "$1" | awk '{ printf "%.0f", $1 / 1024 }' ;;
	esac
}

# measure NAME LABEL command...: runs the command twice under
# /usr/bin/time -v and adds the faster run to the table.
measure() {
	name=$1 label=$2
	shift 2
	best= bestwall=
	for rep in 1 2; do
		log=$work/$name.$rep.log
		{
			echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC') $(uptime)"
			echo "# $*"
		} >"$log"
		/usr/bin/time -v "$@" >>"$log" 2>&1 || {
			cat "$log" >&2
			echo "osm.sh: $name failed, log $log" >&2
			exit 1
		}
		wall=$(field "$log" wall)
		echo "$name run $rep: wall $wall s, user $(field "$log" user) s, sys $(field "$log" sys) s, max RSS $(field "$log" rss) MB"
		if [ -z "$best" ] || awk "BEGIN { exit !($wall < $bestwall) }"; then
			best=$log bestwall=$wall
		fi
	done
	other=$(for rep in 1 2; do [ "$work/$name.$rep.log" = "$best" ] || field "$work/$name.$rep.log" wall; done)
	echo "| $label | $bestwall s | $(field "$best" user) s | $(field "$best" sys) s | $(field "$best" rss) MB | $other s |" >>"$rows"
}

measure routingkit_load "RoutingKit \`simple_load_osm_car_routing_graph_from_pbf\`" "$work/osm_graph" "$pbf"
measure pathflow_ingest "pathflow \`ingest -hierarchy off\`" \
	"$ingest" -input "$pbf" -out "$work/pf-off" -hierarchy off -overwrite replace
measure pathflow_ingest_ch "pathflow \`ingest -hierarchy on\`" \
	"$ingest" -input "$pbf" -out "$work/pf-on" -hierarchy on -overwrite replace

# RoutingKit's graph, written once, for its hierarchy and the comparison.
"$work/osm_graph" "$pbf" "$work/routingkit" >"$work/routingkit_write.log"
"$work/ch_table" "$work/routingkit.gr" 5 >"$work/routingkit_ch.log"
"$work/pathflow_table" -gr "$work/routingkit.gr" -co "$work/routingkit.co" -workers 1 -reps 5 >"$work/pathflow_ch.log"
go run "$here/osm_times.go" -pathflow "$work/pf-off" -routingkit "$work/routingkit.rkgraph" \
	-pairs 5000 -seed 1 >"$work/times.log"

# chline LOG PREFIX KEY: KEY=value of the line of LOG starting with PREFIX.
chline() { grep "^$2" "$1" | head -1 | tr ' ' '\n' | sed -n "s/^$3=//p"; }

echo
echo "## pathflow beside RoutingKit on $(basename "$pbf")"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores, $(awk -F': ' '/^model name/ { m = $2 } /^cpu family/ { f = $2 } /^model\t/ { n = $2 } END { printf "%s (family %s model %s)", m, f, n }' /proc/cpuinfo);" \
	"$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo);" \
	"$(g++ --version | head -1); $(go version | cut -d' ' -f3-4);" \
	"RoutingKit $(git -C "$rk" rev-parse --short=8 HEAD 2>/dev/null || echo '(not a git tree)');" \
	"pathflow $(git rev-parse --short=8 HEAD)${INGEST:+ (ingest: $INGEST)}; load $(cut -d' ' -f1-3 /proc/loadavg) at the end."
echo
echo "| load (best of 2 by wall) | wall | user | sys | max RSS | the other run's wall |"
echo "|---|---|---|---|---|---|"
cat "$rows"
echo
echo "RoutingKit's graph: $(chline "$work/routingkit_write.log" tool= n) vertices, $(chline "$work/routingkit_write.log" tool= m) arcs."
echo "Its contraction hierarchy (\`ch_table\`, one thread) and pathflow's (\`pathflow_table -workers 1\`) on that same graph:"
echo
echo "| tool | CH build wall | random 1,000 x 1,000 table, best of 5 | checksum |"
echo "|---|---|---|---|"
for t in routingkit pathflow; do
	echo "| $t | $(chline "$work/${t}_ch.log" build wall_s) s | $(chline "$work/${t}_ch.log" random1000 wall_best_s) s | $(chline "$work/${t}_ch.log" random1000 sum) |"
done
echo
echo "Travel times, pathflow's graph against RoutingKit's (\`osm_times.go -pairs 5000 -seed 1\`):"
echo
echo '```'
cat "$work/times.log"
echo '```'
