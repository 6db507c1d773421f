#!/bin/sh
# Builds the RoutingKit harnesses against a RoutingKit source tree (not part
# of this repository): compiles lib/libroutingkit.a there with RoutingKit's
# own Makefile (g++, C++17, -O3 -march=native), then links ch_table (its
# contraction hierarchy on a DIMACS graph) and, beside it, osm_graph (its
# OpenStreetMap car loader, which writes the graph it made).
#
#   scripts/compare/routingkit/build.sh /path/to/RoutingKit [ch_table binary]
#
# The ch_table output defaults to ch_table inside the RoutingKit tree, so
# nothing is written into this repository; osm_graph goes into the same
# folder as ch_table.
set -eu
rk=${1:?usage: build.sh ROUTINGKIT_DIR [OUTPUT]}
out=${2:-$rk/ch_table}
here=$(cd "$(dirname "$0")" && pwd)
make -C "$rk" -j"$(nproc)" lib/libroutingkit.a
for tool in ch_table osm_graph; do
	bin=$(dirname "$out")/$tool
	[ "$tool" = ch_table ] && bin=$out
	g++ -std=c++17 -O3 -march=native -DNDEBUG -Wall \
		-I"$rk/include" "$here/$tool.cpp" "$rk/lib/libroutingkit.a" \
		-fopenmp -lz -lm -pthread -o "$bin"
	echo "built $bin"
done
