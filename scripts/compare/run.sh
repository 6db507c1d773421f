#!/bin/sh
# Times pathflow's contraction hierarchy beside RoutingKit's and
# github.com/LdDl/ch's on the same road graphs (docs/road-networks.md,
# "Beside RoutingKit and LdDl/ch"). Run from the repository root:
#
#   scripts/compare/run.sh WORKDIR ROUTINGKIT_DIR LDDL_CH_DIR [SIDES]
#
# WORKDIR gets the DIMACS graphs, the binaries and one log per run;
# ROUTINGKIT_DIR and LDDL_CH_DIR are source trees of the two libraries
# (neither is part of this repository; either may be "-" to skip that
# tool). SIDES defaults to "256 512 1024". LdDl/ch runs only its 200 x 200
# table above side 256: its many-to-many keeps 16 bytes per vertex for
# every source and target and costs |S| * |T| per settled vertex.
set -eu
work=${1:?usage: run.sh WORKDIR ROUTINGKIT_DIR LDDL_CH_DIR [SIDES]}
rk=${2:?usage: run.sh WORKDIR ROUTINGKIT_DIR LDDL_CH_DIR [SIDES]}
lddl=${3:?usage: run.sh WORKDIR ROUTINGKIT_DIR LDDL_CH_DIR [SIDES]}
sides=${4:-256 512 1024}
mkdir -p "$work"
work=$(cd "$work" && pwd)

go build -o "$work/pathflow_table" scripts/compare/pathflow_table.go
[ "$rk" = - ] || scripts/compare/routingkit/build.sh "$rk" "$work/ch_table"
[ "$lddl" = - ] || scripts/compare/lddl/build.sh "$lddl" "$work/lddl_table"

timed() { # log command...
	log=$1
	shift
	{
		echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC') $(uptime)"
		echo "# $*"
		/usr/bin/time -f "time: wall %e s user %U s sys %S s maxrss %M kB" "$@" 2>&1
		echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC') $(uptime)"
	} >"$log" 2>&1
	cat "$log"
}

for s in $sides; do
	g=$work/road$s
	[ -f "$g.gr" ] || go run scripts/compare/export_dimacs.go -side "$s" -seed 1 -out "$g"
	[ "$rk" = - ] || timed "$g.routingkit.log" "$work/ch_table" "$g.gr" 5
	timed "$g.pathflow1.log" "$work/pathflow_table" -gr "$g.gr" -co "$g.co" -workers 1 -reps 5
	timed "$g.pathflow2.log" "$work/pathflow_table" -gr "$g.gr" -co "$g.co" -workers 2 -reps 5
	if [ "$lddl" != - ]; then
		tables=table200
		[ "$s" -gt 256 ] || tables=table200,table1000,random1000
		timed "$g.lddl.log" "$work/lddl_table" -gr "$g.gr" -reps 1 -tables "$tables"
	fi
done
