// ch_table: times RoutingKit's contraction hierarchy on a DIMACS graph, for
// comparison with pathflow's internal/hierarchy (scripts/compare/pathflow.go)
// and github.com/LdDl/ch (scripts/compare/lddl).
//
//   ch_table graph.gr [reps]
//
// Reads the .gr file (1-based ids; the harness uses 0-based ids, vertex v
// of the harness is v+1 in the file), builds the hierarchy with
// ContractionHierarchy::build (one thread), then times three tables, each
// `reps` times (default 5):
//
//   table200     sources 0..199,  targets n/2..n/2+199
//   table1000    sources 0..999,  targets n/2..n/2+999
//   random1000   1,000 sources and 1,000 targets drawn by splitmix64 from
//                seed 1 (sources first), vertex = draw % n
//
// with RoutingKit's many-to-many query: pin the targets once per table,
// then per source reset_source().add_source(s).run_to_pinned_targets()
// and get_distances_to_targets into the row-major result. The query object
// (O(n) arrays) is made once, outside the timings.
//
// For each it prints the best and mean wall time, the mean CPU time
// (user + sys of the process, getrusage) per table, and the checksum: the
// sum of finite distances and the count of unreachable cells.
#include <routingkit/contraction_hierarchy.h>
#include <routingkit/constants.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "timing.h"

using namespace RoutingKit;


// splitmix64, the generator every harness of scripts/compare uses for the
// random endpoints.
struct SplitMix64 {
	uint64_t state;
	uint64_t next() {
		uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		return z ^ (z >> 31);
	}
};

static void read_gr(const char* path, unsigned& n, std::vector<unsigned>& tail, std::vector<unsigned>& head,
                    std::vector<unsigned>& weight) {
	FILE* f = std::fopen(path, "r");
	if (!f) {
		std::perror(path);
		std::exit(1);
	}
	char line[256];
	n = 0;
	while (std::fgets(line, sizeof line, f)) {
		if (line[0] == 'p') {
			unsigned long long nn, mm;
			if (std::sscanf(line, "p sp %llu %llu", &nn, &mm) != 2) {
				std::fprintf(stderr, "%s: bad problem line\n", path);
				std::exit(1);
			}
			n = nn;
			tail.reserve(mm);
			head.reserve(mm);
			weight.reserve(mm);
		} else if (line[0] == 'a') {
			unsigned u, v, w;
			if (std::sscanf(line, "a %u %u %u", &u, &v, &w) != 3 || u < 1 || v < 1 || u > n || v > n) {
				std::fprintf(stderr, "%s: bad arc line %s", path, line);
				std::exit(1);
			}
			tail.push_back(u - 1);
			head.push_back(v - 1);
			weight.push_back(w);
		}
	}
	std::fclose(f);
}

static void run_table(const char* name, ContractionHierarchyQuery& q, const std::vector<unsigned>& sources,
                      const std::vector<unsigned>& targets, int reps) {
	std::vector<unsigned> out(sources.size() * targets.size());
	double best = 1e300, wall_total = 0, cpu_total = 0;
	for (int r = 0; r < reps; ++r) {
		double w0 = wall_now(), c0 = cpu_now();
		q.reset().pin_targets(targets);
		for (size_t i = 0; i < sources.size(); ++i)
			q.reset_source().add_source(sources[i]).run_to_pinned_targets().get_distances_to_targets(&out[i * targets.size()]);
		double w = wall_now() - w0, c = cpu_now() - c0;
		best = std::min(best, w);
		wall_total += w;
		cpu_total += c;
	}
	unsigned long long sum = 0, unreachable = 0;
	for (unsigned d : out) {
		if (d == inf_weight)
			++unreachable;
		else
			sum += d;
	}
	std::printf("%-10s %zux%zu reps=%d wall_best_s=%.4f wall_mean_s=%.4f cpu_mean_s=%.4f sum=%llu unreachable=%llu\n",
	            name, sources.size(), targets.size(), reps, best, wall_total / reps, cpu_total / reps, sum, unreachable);
}

int main(int argc, char** argv) {
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s graph.gr [reps]\n", argv[0]);
		return 2;
	}
	int reps = argc > 2 ? std::atoi(argv[2]) : 5;
	unsigned n;
	std::vector<unsigned> tail, head, weight;
	double w0 = wall_now();
	read_gr(argv[1], n, tail, head, weight);
	size_t m = tail.size();
	std::printf("tool=routingkit graph=%s n=%u m=%zu read_wall_s=%.2f\n", argv[1], n, m, wall_now() - w0);
	std::fflush(stdout);

	w0 = wall_now();
	double c0 = cpu_now();
	ContractionHierarchy ch = ContractionHierarchy::build(n, tail, head, weight);
	double bw = wall_now() - w0, bc = cpu_now() - c0;
	std::printf("build wall_s=%.2f cpu_s=%.2f up_arcs=%zu down_arcs=%zu peak_rss_mb=%ld\n", bw, bc, ch.forward.head.size(),
	            ch.backward.head.size(), peak_rss_mb());
	std::fflush(stdout);

	ContractionHierarchyQuery q(ch);
	auto range = [](unsigned from, unsigned count) {
		std::vector<unsigned> v(count);
		for (unsigned i = 0; i < count; ++i)
			v[i] = from + i;
		return v;
	};
	run_table("table200", q, range(0, 200), range(n / 2, 200), reps);
	run_table("table1000", q, range(0, 1000), range(n / 2, 1000), reps);
	SplitMix64 rng{1};
	std::vector<unsigned> rs(1000), rt(1000);
	for (auto& s : rs)
		s = rng.next() % n;
	for (auto& t : rt)
		t = rng.next() % n;
	run_table("random1000", q, rs, rt, reps);
	std::printf("peak_rss_mb=%ld\n", peak_rss_mb());
	return 0;
}
