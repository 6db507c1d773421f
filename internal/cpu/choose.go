package cpu

import (
	"fmt"
	"strings"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/planner"
)

// Floyd-Warshall variants (backend.Algorithm.Variant); Choose turns an
// empty variant into VariantBlocked.
const (
	VariantBlocked = backend.VariantBlocked
	VariantNaive   = backend.VariantNaive
)

// Choose decides what the CPU backend runs for p; it is the backend's
// registered backend.Factory.Choose.
//
//   - auto: planner.AutoCPU's pick, for all pairs when p.AllSources; a block size applies when the pick is
//     Floyd-Warshall;
//   - sssp: dijkstra, or bellman-ford when some weight is negative;
//   - dijkstra: non-negative weights only, else an error that points to
//     bellman-ford;
//   - bellman-ford and johnson: any weights;
//   - ch: non-negative weights only, else an error wrapping
//     backend.ErrUnsupported;
//   - floyd-warshall: variant blocked (also for an empty variant, with
//     TileEdge as the tile edge, 0 for DefaultTileEdge) or naive.
//
// Only floyd-warshall computes a whole matrix (Choice.AllPairs); the others
// search from the requested sources alone, johnson included. Searches give
// int64 distances; Floyd-Warshall keeps its matrix, and so the rows it
// hands over, in int32 when graph.FitsInt32Distances proves every distance
// fits (Choice.Int64 false) and in int64 otherwise. Variants, block sizes
// and names the backend does not implement give errors wrapping
// backend.ErrUnsupported.
func Choose(p backend.Problem) (backend.Choice, error) {
	alg := p.Algorithm
	negative := p.MinWeight < 0
	c := backend.Choice{Int64: true}
	switch alg.Name {
	case backend.AlgorithmAuto:
		if alg.Variant != "" {
			return c, unsupported("auto takes no variant (got %q); name the algorithm to pick one", alg.Variant)
		}
		name, reason := planner.AutoCPU(p.AllSources, p.N, p.M, negative)
		c.Algorithm, c.Reason = backend.Algorithm{Name: name}, reason
		if name == backend.AlgorithmFloydWarshall {
			// A block size given with auto applies when the pick is
			// blocked.
			c.Algorithm.Variant, c.Algorithm.TileEdge = VariantBlocked, alg.TileEdge
		}
	case backend.AlgorithmSSSP:
		if alg.Variant != "" || alg.TileEdge != 0 {
			return c, unsupported("sssp on the CPU backend has no variant (got %q) or block size (got %d)", alg.Variant, alg.TileEdge)
		}
		c.Algorithm, c.Reason = backend.Algorithm{Name: backend.AlgorithmDijkstra}, "sssp on the CPU backend is Dijkstra"
		if negative {
			c.Algorithm.Name = backend.AlgorithmBellmanFord
			c.Reason = fmt.Sprintf("sssp on the CPU backend with negative weights (min %d) is Bellman-Ford", p.MinWeight)
		}
	default:
		impl, ok := implementations.Lookup(alg.Name)
		if !ok {
			return c, unknownAlgorithm(alg.Name)
		}
		if err := impl.choose(p, &c); err != nil {
			return c, err
		}
	}
	if err := checkAlgorithm(c.Algorithm); err != nil {
		return c, err
	}
	if p.Metric {
		if err := chooseForMetric(alg, &c); err != nil {
			return c, err
		}
	}
	if d, _ := backend.Describe(c.Algorithm.Name); d.AllPairs {
		c.AllPairs = true
		c.Int64 = !graph.FitsInt32Distances(int64(p.N), p.MinWeight, p.MaxWeight)
	}
	return c, nil
}

// checkAlgorithm accepts the concrete algorithms Run implements, with the
// variants and block sizes their registered check accepts.
func checkAlgorithm(alg backend.Algorithm) error {
	if d, ok := backend.Describe(alg.Name); ok && d.Policy {
		return unsupported("%s is resolved by Choose; Run takes the algorithm of its Choice", alg.Name)
	}
	impl, ok := implementations.Lookup(alg.Name)
	if !ok {
		return unknownAlgorithm(alg.Name)
	}
	return impl.check(alg)
}

// unknownAlgorithm is the error for a name the CPU does not implement: it
// lists the policies Choose resolves itself, then the registered
// algorithms in the table's order.
func unknownAlgorithm(name string) error {
	names := append([]string{backend.AlgorithmAuto, backend.AlgorithmSSSP}, implementations.Names()...)
	last := len(names) - 1
	return unsupported("unknown algorithm %q (want %s or %s)", name, strings.Join(names[:last], ", "), names[last])
}

// unsupported formats an error for a request this backend does not
// implement; it wraps backend.ErrUnsupported.
func unsupported(format string, args ...any) error {
	return fmt.Errorf("cpu: "+format+" (%w)", append(args, backend.ErrUnsupported)...)
}

// reportsMetric reports whether the CPU's alg reports a metric beside the
// distance (see metric.go).
func reportsMetric(alg string) bool {
	switch alg {
	case backend.AlgorithmDijkstra, backend.AlgorithmBellmanFord, backend.AlgorithmCH:
		return true
	}
	return false
}

// chooseForMetric makes c report a metric: a policy (auto, sssp) that
// picked an algorithm that reports none runs Dijkstra instead, and an
// algorithm named outright that reports none is refused.
func chooseForMetric(requested backend.Algorithm, c *backend.Choice) error {
	if reportsMetric(c.Algorithm.Name) && (c.Algorithm.Name != backend.AlgorithmBellmanFord || requested.Name == backend.AlgorithmBellmanFord) {
		return nil
	}
	if d, _ := backend.Describe(requested.Name); !d.Policy {
		return unsupported("%s reports no metric beside the distance; dijkstra, bellman-ford and ch do", requested.Name)
	}
	c.Algorithm = backend.Algorithm{Name: backend.AlgorithmDijkstra}
	c.Reason = requested.Name + " with a metric: Dijkstra from each source, on (weight, metric) keys"
	return nil
}
