#!/bin/sh
# Builds ch_table against a RoutingKit source tree (not part of this
# repository): compiles lib/libroutingkit.a there with RoutingKit's own
# Makefile (g++, C++17, -O3 -march=native), then links the harness.
#
#   scripts/compare/routingkit/build.sh /path/to/RoutingKit [output binary]
#
# The output defaults to ch_table inside the RoutingKit tree, so nothing is
# written into this repository.
set -eu
rk=${1:?usage: build.sh ROUTINGKIT_DIR [OUTPUT]}
out=${2:-$rk/ch_table}
here=$(cd "$(dirname "$0")" && pwd)
make -C "$rk" -j"$(nproc)" lib/libroutingkit.a
g++ -std=c++17 -O3 -march=native -DNDEBUG -Wall \
	-I"$rk/include" "$here/ch_table.cpp" "$rk/lib/libroutingkit.a" \
	-fopenmp -lz -lm -pthread -o "$out"
echo "built $out"
