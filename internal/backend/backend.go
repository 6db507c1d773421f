package backend

import (
	"context"
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/results"
)

// Algorithm names what to run: an algorithm family and one of its variants
// (for example "floyd-warshall" / "fast"). A Choice always carries a
// concrete name and variant; a configured Algorithm may say "auto" and
// leave the variant empty.
type Algorithm struct {
	Name    string
	Variant string
	// TileEdge is the tile edge of blocked all-pairs variants
	// (compute.block_size); 0 means the variant's default. The GPU's
	// threads per block are another setting (gpu.SSSPOptions).
	TileEdge int
}

// Request is one run: the rows of Sources, in that order.
type Request struct {
	// Edges and CSR are the same graph, as an edge list (all-pairs
	// algorithms) and in compressed sparse rows (searches).
	Edges *graph.EdgeList
	CSR   *graph.CSR
	// Sources are the dense ids of the rows, in output order; a source may
	// not repeat.
	Sources []int32
	// Targets, when not nil, are the only vertices every row reports, in
	// this order: a block's rows are len(Targets) wide and column j holds
	// vertex Targets[j]. A backend may stop a search once every target is
	// settled. nil: every vertex, in id order (rows are n wide).
	Targets []int32
	// SourceTargets, when not nil, gives each source its own targets (a
	// pair list grouped by source): row i reports vertices
	// SourceTargets[i], in that order, and blocks are ragged (see
	// results.Rows.Offsets). At most one of Targets and SourceTargets is set.
	SourceTargets [][]int32
	// Hierarchy, when not nil, is a contraction hierarchy of CSR (the
	// caller checked that it was built from this graph): the ch algorithm
	// answers from it instead of building one.
	Hierarchy *hierarchy.Hierarchy
	// Choice is what Factory.Choose decided for this request.
	Choice Choice
	// Parents asks for the parent of every vertex beside its distance.
	Parents bool
	// MaxDistance, unless results.NoCutoff, lets the backend stop searching beyond
	// this distance: a vertex farther away may be reported unreachable or
	// with its true distance. Consumers filter either way.
	MaxDistance int64
	// CutoffCells says that the consumers also take sparse blocks
	// (results.Rows.Vertices): with a cutoff and every vertex a target, a
	// backend may hand each row as its cells within MaxDistance instead of
	// n values, so that only those leave the device and cross to the
	// writers. Ignored otherwise (see SparseRows).
	CutoffCells bool
	// Progress, when not nil, is told how far the computation has come:
	// done of total units, in the unit ProgressUnit names for the Choice
	// (pivots for all-pairs algorithms, sources for searches). Backends
	// call it from any goroutine, several at once and often, so it must be
	// safe for concurrent use and cheap, and rate-limit any output itself;
	// calls may arrive out of order (keep the largest done). done reaches
	// total when the computation completes.
	Progress func(done, total int64)
	// Facts, when not nil, is told what the backend decided and measured
	// for this run (launch sizes, device busy time), under a key and as a
	// JSON-encodable value, for the log and the manifest. Backends may call
	// it from several goroutines at once; it must be safe for that.
	Facts func(key string, value any)
}

// RowWidth is the number of values row i reports: len(SourceTargets[i]),
// len(Targets), or the vertex count n.
func (r *Request) RowWidth(i int, n int) int {
	switch {
	case r.SourceTargets != nil:
		return len(r.SourceTargets[i])
	case r.Targets != nil:
		return len(r.Targets)
	}
	return n
}

// Narrowed reports whether rows hold chosen targets rather than every
// vertex.
func (r *Request) Narrowed() bool { return r.Targets != nil || r.SourceTargets != nil }

// SparseRows reports whether a backend may hand r's rows as sparse blocks:
// CutoffCells with a cutoff, over every vertex.
func (r *Request) SparseRows() bool {
	return r.CutoffCells && r.MaxDistance != results.NoCutoff && !r.Narrowed()
}

// ReportFact calls r.Facts when it is set.
func (r *Request) ReportFact(key string, value any) {
	if r.Facts != nil {
		r.Facts(key, value)
	}
}

// ReportProgress calls r.Progress when it is set.
func (r *Request) ReportProgress(done, total int64) {
	if r.Progress != nil {
		r.Progress(done, total)
	}
}

// ProgressUnit names the unit of Request.Progress for a choice: "pivots"
// for an all-pairs algorithm (Floyd-Warshall's vertices k whose round has
// run, out of n), "sources" for searches (rows computed, out of the
// request's sources).
func ProgressUnit(c Choice) string {
	if c.AllPairs {
		return "pivots"
	}
	return "sources"
}

// Backend computes requests on one kind of hardware.
type Backend interface {
	// Name is the name the backend registered under ("cpu", "gpu").
	Name() string
	// Device describes the hardware, e.g. "NVIDIA H200 (sm_90, 139 GiB)".
	Device() string
	// Run computes every row of req and hands them to sink in blocks, each
	// exactly once. It returns when every block has been handed over; a
	// backend whose blocks live in memory it must free (pinned staging)
	// also waits for them to be released, so a consumer must release
	// blocks while Run runs, never only after it returns. It stops at the
	// first error from the computation,
	// from sink or from ctx; then no block is handed over after it
	// returns. Run validates its input and returns an error rather than a
	// wrong answer: negative cycles, possible overflow, lack of memory.
	Run(ctx context.Context, req Request, sink results.Sink) error
	// Close releases the backend's resources. Blocks still held by a
	// consumer stay valid until released.
	Close() error
}

// ErrUnsupported is wrapped by every error for an algorithm, variant or
// option a backend does not implement, so callers can report it as a
// configuration problem rather than a failed computation.
var ErrUnsupported = errors.New("not supported by this backend")

// NegativeCycleError reports a cycle of negative total weight, which leaves
// shortest paths undefined. Every backend reports it with this type, in
// dense ids; the pipeline restates it in the input's ids.
type NegativeCycleError struct {
	// Backend is the name of the backend that found the cycle.
	Backend string
	// Vertex lies on the cycle.
	Vertex int32
	// Cycle lists the cycle's vertices in arc order, starting at Vertex,
	// when the backend traced it (nil otherwise): arcs Cycle[i] ->
	// Cycle[i+1] and Cycle[len-1] -> Cycle[0] exist and their weights sum
	// to a negative number. A negative self-loop is a cycle of one vertex.
	Cycle []int32
}

// Error names the backend, the vertex and, when traced, the cycle's length.
func (e *NegativeCycleError) Error() string {
	msg := fmt.Sprintf("%s: negative cycle through vertex %d", e.Backend, e.Vertex)
	if len(e.Cycle) > 0 {
		msg += fmt.Sprintf(" (%d vertices)", len(e.Cycle))
	}
	return msg
}

// ErrNeedsInt64 is wrapped by Choose errors for graphs whose distances might
// not fit a backend's int32 arithmetic; another backend with int64
// arithmetic gives the exact answer.
var ErrNeedsInt64 = errors.New("distances might not fit in int32")
