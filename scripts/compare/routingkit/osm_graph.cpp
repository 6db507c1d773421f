// osm_graph: loads an OpenStreetMap .osm.pbf with RoutingKit's car profile
// (simple_load_osm_car_routing_graph_from_pbf), times the load, and writes
// the graph it made, so that pathflow's OpenStreetMap ingest of the same
// file can be compared with it (scripts/compare/osm_times.go) and its
// contraction hierarchy timed by ch_table on the same arcs.
//
//   osm_graph input.osm.pbf                # load and time only
//   osm_graph input.osm.pbf PREFIX         # also write PREFIX.rkgraph,
//                                          # PREFIX.gr and PREFIX.co
//
// The loader runs with RoutingKit's defaults: only routing nodes
// (intersections, dead ends) are vertices, modelling nodes between them are
// folded into the arcs, and the file's header decides whether it is
// ordered. Its forbidden turns are not written: neither the comparison nor
// ch_table uses them.
//
// PREFIX.rkgraph is binary, little-endian, in this order:
//
//   char[8]   magic "RKOSMGR1"
//   uint32    n, the vertex count
//   uint32    m, the arc count
//   float32   latitude[n]      degrees WGS84, as RoutingKit keeps them
//   float32   longitude[n]
//   uint32    first_out[n+1]   the arcs of vertex v are first_out[v] ..
//                              first_out[v+1]-1
//   uint32    head[m]          the vertex each arc enters
//   uint32    travel_time[m]   milliseconds (RoutingKit's unit)
//   uint32    geo_distance[m]  metres
//
// PREFIX.gr and PREFIX.co are the same graph as DIMACS shortest-path files
// (1-based ids, vertex v is v+1 there): one "a" line per arc weighted by its
// travel time in milliseconds, and "v id x y" with x = longitude and
// y = latitude in millionths of a degree, rounded, so ch_table and
// pathflow_table run on exactly RoutingKit's arcs.
//
// Printed, one line each: the load's wall and CPU seconds (user + sys,
// getrusage) with the vertex and arc counts and the peak RSS, then the
// time the files took.
#include <routingkit/osm_simple.h>

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "timing.h"

using namespace RoutingKit;


static FILE* create(const std::string& path) {
	FILE* f = std::fopen(path.c_str(), "wb");
	if (!f) {
		std::perror(path.c_str());
		std::exit(1);
	}
	return f;
}

static void finish(FILE* f, const std::string& path) {
	if (std::ferror(f) || std::fclose(f) != 0) {
		std::fprintf(stderr, "%s: write failed\n", path.c_str());
		std::exit(1);
	}
}

template <class T>
static void put(FILE* f, const std::vector<T>& v) {
	if (!v.empty())
		std::fwrite(v.data(), sizeof(T), v.size(), f);
}

static void write_rkgraph(const std::string& path, const SimpleOSMCarRoutingGraph& g) {
	// The layout above is little-endian; fwrite of the arrays is only that
	// on a little-endian host.
	const uint32_t probe = 1;
	if (*reinterpret_cast<const unsigned char*>(&probe) != 1) {
		std::fprintf(stderr, "%s: this writer needs a little-endian host\n", path.c_str());
		std::exit(1);
	}
	static_assert(sizeof(unsigned) == 4 && sizeof(float) == 4, "the file stores 32-bit fields");
	FILE* f = create(path);
	uint32_t counts[2] = {g.node_count(), g.arc_count()};
	std::fwrite("RKOSMGR1", 1, 8, f);
	std::fwrite(counts, sizeof counts[0], 2, f);
	put(f, g.latitude);
	put(f, g.longitude);
	put(f, g.first_out);
	put(f, g.head);
	put(f, g.travel_time);
	put(f, g.geo_distance);
	finish(f, path);
}

static void write_dimacs(const std::string& prefix, const SimpleOSMCarRoutingGraph& g) {
	unsigned n = g.node_count();
	std::string gr = prefix + ".gr", co = prefix + ".co";
	FILE* f = create(gr);
	std::fprintf(f, "c RoutingKit car graph, travel time in milliseconds\n");
	std::fprintf(f, "p sp %u %u\n", n, g.arc_count());
	for (unsigned v = 0; v < n; ++v)
		for (unsigned a = g.first_out[v]; a < g.first_out[v + 1]; ++a)
			std::fprintf(f, "a %u %u %u\n", v + 1, g.head[a] + 1, g.travel_time[a]);
	finish(f, gr);

	f = create(co);
	std::fprintf(f, "c RoutingKit car graph, longitude and latitude in millionths of a degree\n");
	std::fprintf(f, "p aux sp co %u\n", n);
	for (unsigned v = 0; v < n; ++v)
		std::fprintf(f, "v %u %ld %ld\n", v + 1, std::lround(double(g.longitude[v]) * 1e6),
		             std::lround(double(g.latitude[v]) * 1e6));
	finish(f, co);
}

int main(int argc, char** argv) {
	if (argc < 2 || argc > 3) {
		std::fprintf(stderr, "usage: %s input.osm.pbf [PREFIX]\n", argv[0]);
		return 2;
	}
	std::string pbf = argv[1];

	double w0 = wall_now(), c0 = cpu_now();
	SimpleOSMCarRoutingGraph g = simple_load_osm_car_routing_graph_from_pbf(pbf);
	double lw = wall_now() - w0, lc = cpu_now() - c0;
	std::printf("tool=routingkit input=%s n=%u m=%u forbidden_turns=%zu load_wall_s=%.2f load_cpu_s=%.2f peak_rss_mb=%ld\n",
	            pbf.c_str(), g.node_count(), g.arc_count(), g.forbidden_turn_from_arc.size(), lw, lc, peak_rss_mb());
	std::fflush(stdout);
	if (argc < 3)
		return 0;

	std::string prefix = argv[2];
	w0 = wall_now();
	write_rkgraph(prefix + ".rkgraph", g);
	write_dimacs(prefix, g);
	std::printf("wrote %s.rkgraph %s.gr %s.co write_wall_s=%.2f\n", prefix.c_str(), prefix.c_str(), prefix.c_str(),
	            wall_now() - w0);
	return 0;
}
