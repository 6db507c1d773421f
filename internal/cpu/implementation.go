package cpu

import (
	"context"
	"math"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
)

// implementation is what the CPU backend runs for one algorithm; each
// algorithm's file registers its own in implementations (see
// docs/contributing.md).
type implementation struct {
	// choose fills c's algorithm and reason for a request that names this
	// algorithm, or says why the backend cannot run it on p's graph.
	choose func(p backend.Problem, c *backend.Choice) error
	// check accepts the variants and block sizes Run implements.
	check func(alg backend.Algorithm) error
	// run computes a whole request. Searches leave it nil and give
	// searches instead, which Run schedules over the workers.
	run func(b *Backend, ctx context.Context, req *backend.Request, sink results.Sink) error
	// searches checks g and returns what makes one search per worker; lo
	// is g's smallest weight, positive whether every weight is above 0
	// (or there are no arcs), limit the cutoff (math.MaxInt64 for none).
	searches func(ctx context.Context, g *graph.CSR, lo int32, positive bool, limit int64) (searchSet, error)
	// wholeGraph: preparing the searches looks at the whole graph
	// (Johnson's potentials), so a request without sources skips it.
	wholeGraph bool
}

// implementations are the algorithms the CPU backend runs.
var implementations backend.Implementations[implementation]

// noVariant is the check of algorithms without variants or block sizes.
func noVariant(alg backend.Algorithm) error {
	if alg.Variant != "" {
		return unsupported("%s has no variant %q", alg.Name, alg.Variant)
	}
	if alg.TileEdge != 0 {
		return unsupported("%s takes no block size", alg.Name)
	}
	return nil
}

// asRequested is the choose of an algorithm that runs as requested, for
// reason, on any graph, or, when refuseNegative is not nil, on graphs
// without negative weights: refuseNegative makes the error that names the
// graph's smallest weight.
func asRequested(reason string, refuseNegative func(minWeight int32) error) func(p backend.Problem, c *backend.Choice) error {
	return func(p backend.Problem, c *backend.Choice) error {
		if refuseNegative != nil && p.MinWeight < 0 {
			return refuseNegative(p.MinWeight)
		}
		c.Algorithm, c.Reason = p.Algorithm, reason
		return nil
	}
}

// checkedSearches is the searches of an algorithm whose searches need no
// context and cannot fail once check accepts the graph.
func checkedSearches(check func(g *graph.CSR) error, build func(g *graph.CSR, lo int32, positive bool, limit int64) searchSet) func(ctx context.Context, g *graph.CSR, lo int32, positive bool, limit int64) (searchSet, error) {
	return func(_ context.Context, g *graph.CSR, lo int32, positive bool, limit int64) (searchSet, error) {
		if err := check(g); err != nil {
			return searchSet{}, err
		}
		return build(g, lo, positive, limit), nil
	}
}

// withDijkstraNarrowed pairs whole-row searches full with Dijkstra's
// narrowed and sparse searches, which stop at their last target or at the
// cutoff: right wherever weights are not negative.
func withDijkstraNarrowed(g *graph.CSR, positive bool, limit int64, full func() shortest.RowSearch) searchSet {
	return searchSet{full, shortest.DijkstraTargetSearches(g, positive, limit), shortest.DijkstraCellSearches(g, positive, limit)}
}

// gathered is the searchSet of an algorithm that only searches whole
// rows: narrowed rows are gathered from them, and sparse rows are
// whole rows cut afterwards.
func gathered(g *graph.CSR, full func() shortest.RowSearch) searchSet {
	return searchSet{full, shortest.GatherSearches(g.N, full), nil}
}

// noLimit is the cutoff of searches that must not stop early.
const noLimit = int64(math.MaxInt64)
