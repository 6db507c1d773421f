package ingest

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
)

// Thresholds of ingest.hierarchy: auto, the test that a graph looks like a
// road network. Every test is one pass over the arcs or less: no search.
const (
	// AutoHierarchyMinN: below 10,000 vertices a hierarchy saves a run
	// next to nothing. A Dijkstra search over the whole graph takes about
	// a millisecond there, and building the hierarchy in the run itself
	// takes about 0.2 s (1.5 cpu-s for 65,536 road vertices,
	// docs/road-networks.md), so storing one is not worth three more files.
	AutoHierarchyMinN = 10_000
	// AutoHierarchyMaxDegree: road networks have 2.4 to 2.8 arcs per
	// vertex (the DIMACS USA graphs; the road generator 2.5). A graph
	// with more has no fast lines for a hierarchy to find (social and web
	// graphs, dense random graphs, and a square grid with random weights,
	// just under 4: 152 cpu-s to contract 262,144 grid vertices against
	// 4.7 for as many road vertices), and contracting it adds shortcuts
	// faster than it removes vertices.
	AutoHierarchyMaxDegree = 3.5
	// AutoHierarchyMaxHub: no intersection has more than 16 roads in or
	// out (the DIMACS USA graphs have at most 9, rome99 5). Hubs mark
	// peer-to-peer and social graphs of few arcs per vertex:
	// p2p-Gnutella04 (3.68 arcs per vertex, a vertex with 100 out-arcs)
	// passed the two tests above and took 148 cpu-s to contract on 10,876
	// vertices, against 28 cpu-s for a million road vertices.
	AutoHierarchyMaxHub = 16
	// AutoHierarchyMinTwoWay: most streets are two-way: of the arcs
	// u -> v, the share whose reverse v -> u exists is 1 in the road
	// generator and the DIMACS USA graphs and 0.91 in rome99 (0 in
	// p2p-Gnutella04). Half leaves room for cities of one-way streets.
	AutoHierarchyMinTwoWay = 0.5
	// autoHierarchySample is how many arcs, evenly spaced, the two-way
	// test looks at.
	autoHierarchySample = 4096
)

// roadLike reports whether the graph g (e as rows) looks like a road
// network, by the thresholds above, and says why or why not. It assumes
// non-negative weights were checked. O(n + m) for the degrees, then
// O(autoHierarchySample * autoHierarchyMaxHub).
func roadLike(e *graph.EdgeList, g *graph.CSR) (bool, string) {
	degree := float64(e.M()) / float64(max(e.N, 1))
	switch {
	case e.N < AutoHierarchyMinN:
		return false, fmt.Sprintf("auto: %d vertices, below the %d worth storing a hierarchy for", e.N, AutoHierarchyMinN)
	case degree > AutoHierarchyMaxDegree:
		return false, fmt.Sprintf("auto: %.2f arcs per vertex, above the %g of road-like graphs", degree, AutoHierarchyMaxDegree)
	}
	in := make([]int32, e.N)
	for _, v := range e.Dst {
		in[v]++
	}
	for v := range e.N {
		out := g.Offsets[v+1] - g.Offsets[v]
		if out > AutoHierarchyMaxHub || in[v] > AutoHierarchyMaxHub {
			return false, fmt.Sprintf("auto: vertex %d has %d out-arcs and %d in-arcs, more than the %d of a road intersection", v, out, in[v], AutoHierarchyMaxHub)
		}
	}
	m := e.M()
	stride := max(1, m/autoHierarchySample)
	sampled, twoWay := 0, 0
	for a := 0; a < m; a += stride {
		u, v := e.Src[a], e.Dst[a]
		sampled++
		for b := g.Offsets[v]; b < g.Offsets[v+1]; b++ {
			if g.Targets[b] == u {
				twoWay++
				break
			}
		}
	}
	share := float64(twoWay) / float64(max(sampled, 1))
	if share < AutoHierarchyMinTwoWay {
		return false, fmt.Sprintf("auto: %.0f%% of %d sampled arcs have a reverse arc, below the %.0f%% of road networks", 100*share, sampled, 100*AutoHierarchyMinTwoWay)
	}
	return true, fmt.Sprintf("auto: a road-like graph (%d vertices, %.2f arcs per vertex <= %g, none with more than %d in or out, %.0f%% of sampled arcs two-way, weights >= 0)",
		e.N, degree, AutoHierarchyMaxDegree, AutoHierarchyMaxHub, 100*share)
}
