package cpu

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
)

// blockValues is about how many distances a block of rows holds: 8 MiB of
// int64 (12 MiB with parents), large enough that handing a block over
// costs nothing next to computing it, small enough that a few blocks per
// worker bound a run's memory.
const blockValues = 1 << 20

// Backend runs shortest-path algorithms on the CPU. It is safe for
// concurrent use: it holds no state beyond its settings.
type Backend struct {
	workers int
	// blockValues is the size of a block in values; tests lower it to get
	// many blocks from small graphs.
	blockValues int
	// rowBytes bounds the rows in flight (RowMemory); 0: the default.
	rowBytes int64
}

var _ backend.Backend = (*Backend)(nil)

// New returns a CPU backend that runs parallel work on workers goroutines;
// workers <= 0 means runtime.GOMAXPROCS(0).
func New(workers int, opts ...Option) *Backend {
	b := &Backend{workers: parallel.Workers(workers), blockValues: blockValues}
	for _, o := range opts {
		o(b)
	}
	return b
}

// valuesPerBlock is the size of a block in values: b.blockValues, or
// blockValues for a Backend not made by New.
func (b *Backend) valuesPerBlock() int {
	if b.blockValues <= 0 {
		return blockValues
	}
	return b.blockValues
}

// Name is the name the CPU backend registers under.
const Name = backend.CPU

// Name returns "cpu".
func (b *Backend) Name() string { return Name }

// Device describes the processor, e.g. "amd64 CPU, 2 workers".
func (b *Backend) Device() string {
	return fmt.Sprintf("%s CPU, %d workers", runtime.GOARCH, b.workers)
}

// Workers returns the number of goroutines parallel work runs on.
func (b *Backend) Workers() int { return b.workers }

// Close releases nothing: the backend holds no resources.
func (b *Backend) Close() error { return nil }

// Run computes the rows of req with the algorithm of req.Choice, which
// must come from Choose for this graph (a concrete algorithm, and Int64 as
// Choose sets it), and hands them to sink.
//
// Dijkstra, Bellman-Ford and Johnson search from the requested sources
// only, in parallel over the backend's workers: each worker takes a block
// from a pool of about two per worker, fills it with a batch of
// consecutive sources (about a million distances; int64, parents when
// req asks for them) and hands it to sink, so memory stays bounded however
// slow the consumer. Johnson first computes its potentials over the whole
// graph, so a negative cycle anywhere is an error. Floyd-Warshall computes
// the whole matrix and hands over views of its requested rows: runs of
// consecutive sources that are consecutive vertices share a block, in int32
// or int64 as Choice.Int64 says; releasing a view does nothing, and the
// matrix is freed once the consumer drops the last one.
//
// CH (a contraction hierarchy, non-negative weights only) first builds
// the hierarchy on every worker and reports its build time, shortcuts and
// rounds through req.Facts (hierarchy.FactKey); then PHAST computes whole
// rows (parents derived in the original graph), the bucket algorithm rows
// narrowed to req.Targets or req.SourceTargets, and a point query per
// cell, unpacked into the original graph, narrowed rows with parents. Its
// cutoff is a filter: cells beyond req.MaxDistance are unreachable.
//
// req.MaxDistance, unless results.NoCutoff (or any negative value), lets
// Dijkstra and Johnson stop once the next vertex lies beyond it, and
// Bellman-Ford drop paths beyond it when no weight is negative; vertices
// farther away may then be reported unreachable. Floyd-Warshall ignores it.
//
// req.Targets or req.SourceTargets narrow the rows to those vertices
// (backend.Request): Dijkstra, and Johnson without negative weights, stop
// a row's search once its last target leaves the heap; Bellman-Ford,
// Johnson with negative weights and Floyd-Warshall compute the full row
// and copy the targets out. Distances and parents are those of the full
// rows, so narrowing changes no value.
//
// With req.SummaryOnly each block's rows are reduced to their summaries
// (results.Shape.SummarizeSink) by the worker that filled it, which
// takes the block back for its next batch before the consumer sees them.
//
// Run checks the request first (a graph that passes validation, sources
// in range and distinct, targets in range, a Choice it implements) and calls sink for none
// of an invalid one. The first error of a search, of sink or of ctx stops
// every worker, and Run returns it once all of them have ended.
func (b *Backend) Run(ctx context.Context, req backend.Request, sink results.Sink) error {
	// A result read only as summaries is reduced by the worker that
	// computed each block, which then takes the block back at once.
	sink = req.SummarizeSink(sink)
	alg := req.Choice.Algorithm
	if err := checkAlgorithm(alg); err != nil {
		return err
	}
	impl, _ := implementations.Lookup(alg.Name) // checkAlgorithm found it
	if req.Wants(results.Metric) && !reportsMetric(alg.Name) {
		return unsupported("%s reports no metric; dijkstra, bellman-ford and ch do", alg.Name)
	}
	if impl.run != nil {
		return impl.run(b, ctx, &req, sink)
	}
	g, err := requestCSR(&req)
	if err != nil {
		return err
	}
	if err := shortest.ValidateSources(g.N, req.Sources); err != nil {
		return err
	}
	if !req.Choice.Int64 {
		return fmt.Errorf("cpu: the request's choice asks for int32 distances, but %s gives int64; take the choice from Choose", alg.Name)
	}
	if impl.wholeGraph && len(req.Sources) == 0 {
		return nil // no need for the potentials
	}
	var set searchSet
	if req.Wants(results.Metric) {
		var bound graph.KeyBound
		if set, bound, err = keyedSearches(g, alg.Name, req.MaxDistance); err != nil {
			return err
		}
		sink = splitKeys(sink, bound)
	} else if set, err = searches(ctx, g, impl, req.MaxDistance); err != nil {
		return err
	}
	if req.Narrowed() {
		if err := validateTargets(g.N, &req); err != nil {
			return err
		}
		return b.streamTargets(ctx, &req, set.targeted, sink)
	}
	if req.SparseRows() && set.cells != nil {
		return b.streamCells(ctx, &req, int(g.N), set.cells, sink)
	}
	return b.stream(ctx, &req, int(g.N), set.full, sink)
}

// searchSet is what makes one search per worker, for full rows, for rows
// narrowed to targets and, where the algorithm can stop at the cutoff, for
// sparse rows (nil otherwise).
type searchSet struct {
	full     func() shortest.RowSearch
	targeted func(withParents bool) shortest.TargetSearch
	cells    func(withParents bool) shortest.CellSearch
}

// searches checks g for a single-source implementation and returns what
// makes one search per worker, with the cutoff maxDistance as Run
// describes it.
func searches(ctx context.Context, g *graph.CSR, impl implementation, maxDistance int64) (searchSet, error) {
	// A negative cutoff other than NoCutoff matters only with negative
	// weights; taking it as none computes more than asked, which is
	// always allowed.
	limit := noLimit
	if maxDistance >= 0 {
		limit = maxDistance
	}
	// One look at the weights serves every check and search: O(1) for a
	// recorded range, else one pass over the arcs.
	lo, _ := g.WeightRange()
	positive := g.M() == 0 || lo > 0
	return impl.searches(ctx, g, lo, positive, limit)
}

// requestCSR returns the request's graph in compressed sparse rows,
// validated, building it from the edge list when the request has none.
func requestCSR(req *backend.Request) (*graph.CSR, error) {
	g, e := req.CSR, req.Edges
	switch {
	case g == nil && e == nil:
		return nil, errors.New("cpu: request without a graph")
	case g == nil:
		if err := shortest.ValidateEdgeList(e); err != nil {
			return nil, err
		}
		return graph.BuildCSR(e), nil
	}
	if err := shortest.ValidateCSR(g); err != nil {
		return nil, err
	}
	if err := checkSameGraph(e, g); err != nil {
		return nil, err
	}
	return g, nil
}

// requestEdges returns the request's graph as a validated edge list,
// building it from the CSR when the request has none.
func requestEdges(req *backend.Request) (*graph.EdgeList, error) {
	g, e := req.CSR, req.Edges
	switch {
	case g == nil && e == nil:
		return nil, errors.New("cpu: request without a graph")
	case e == nil:
		if err := shortest.ValidateCSR(g); err != nil {
			return nil, err
		}
		return edgesOf(g), nil
	}
	if err := shortest.ValidateEdgeList(e); err != nil {
		return nil, err
	}
	if err := checkSameGraph(e, g); err != nil {
		return nil, err
	}
	return e, nil
}

// checkSameGraph rejects a request whose two forms of the graph, when it
// has both, differ in size.
func checkSameGraph(e *graph.EdgeList, g *graph.CSR) error {
	if e != nil && g != nil && (e.N != g.N || e.M() != g.M()) {
		return fmt.Errorf("cpu: request's edge list (%d vertices, %d arcs) and CSR (%d, %d) differ", e.N, e.M(), g.N, g.M())
	}
	return nil
}

// edgesOf lists the arcs of a validated CSR. O(n + m).
func edgesOf(g *graph.CSR) *graph.EdgeList {
	e := graph.NewEdgeList(g.N, g.M())
	for u := range g.N {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			e.Add(u, g.Targets[i], g.Weights[i])
		}
	}
	return e
}
