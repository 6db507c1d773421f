package planner

import (
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
)

// TestAutoCPU pins the CPU's auto picks and their reasons around each
// threshold.
func TestAutoCPU(t *testing.T) {
	for _, c := range []struct {
		allPairs     bool
		n            int32
		m            int64
		negative     bool
		want, reason string
	}{
		{false, 10, 20, false, backend.AlgorithmDijkstra, "non-negative weights: Dijkstra"},
		{false, 10, 20, true, backend.AlgorithmBellmanFord, "negative weights: Bellman-Ford (Dijkstra needs non-negative weights)"},
		{false, 100000, 400000, false, backend.AlgorithmDijkstra, "non-negative weights: Dijkstra"},
		{true, 4096, 5000, false, backend.AlgorithmFloydWarshall, "all pairs on 4096 <= 4096 vertices: blocked Floyd-Warshall"},
		{true, 4096, 5000, true, backend.AlgorithmFloydWarshall, "all pairs on 4096 <= 4096 vertices: blocked Floyd-Warshall"},
		{true, 4097, 5000, false, backend.AlgorithmJohnson, "all pairs on a sparse graph (4097 vertices, 5000 arcs) without negative weights: Dijkstra from every source"},
		{true, 4097, 5000, true, backend.AlgorithmJohnson, "all pairs on a sparse graph (4097 vertices, 5000 arcs) with negative weights: Johnson's reweighting, then Dijkstra from every source"},
		{true, 10000, 10000 * 10000 / 128, false, backend.AlgorithmFloydWarshall, "all pairs on a dense graph (781250 arcs >= n^2/128): blocked Floyd-Warshall"},
		{true, 10000, 10000*10000/128 - 1, false, backend.AlgorithmJohnson, "all pairs on a sparse graph (10000 vertices, 781249 arcs) without negative weights: Dijkstra from every source"},
		{true, 10000, 10000 * 10000 / 128, true, backend.AlgorithmFloydWarshall, "all pairs on a dense graph (781250 arcs >= n^2/128): blocked Floyd-Warshall"},
	} {
		name, reason := AutoCPU(c.allPairs, c.n, c.m, c.negative)
		if name != c.want || reason != c.reason {
			t.Errorf("%+v: got %q (%q)", c, name, reason)
		}
	}
}

// TestAutoGPU pins the GPU's auto picks and their reasons.
func TestAutoGPU(t *testing.T) {
	for _, c := range []struct {
		allSources   bool
		n, lo        int32
		want, reason string
	}{
		{true, 1000, 1, backend.AlgorithmFloydWarshall, "all pairs on 1000 vertices on the GPU: Floyd-Warshall"},
		{true, 1000, -3, backend.AlgorithmFloydWarshall, "all pairs on 1000 vertices on the GPU: Floyd-Warshall"},
		{false, 1000, -3, backend.AlgorithmBellmanFord, "negative weights (min -3) on the GPU: Bellman-Ford"},
		{false, 1000, 0, backend.AlgorithmSSSP, "non-negative weights on the GPU: the near-far frontier search"},
	} {
		name, reason := AutoGPU(c.allSources, c.n, c.lo)
		if name != c.want || reason != c.reason {
			t.Errorf("%+v: got %q (%q)", c, name, reason)
		}
	}
}
