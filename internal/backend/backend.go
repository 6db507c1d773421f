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

// Request is one run: the rows of Sources, in that order, shaped as its
// results.Shape declares (targets, cutoff, columns), which a backend
// answers exactly: blocks hold the requested columns and targets, no more.
type Request struct {
	// Shape is the result asked for: sources, targets, cutoff, columns.
	results.Shape
	// Edges and CSR are the same graph, as an edge list (all-pairs
	// algorithms) and in compressed sparse rows (searches).
	Edges *graph.EdgeList
	CSR   *graph.CSR
	// Hierarchy, when not nil, is a contraction hierarchy of CSR (the
	// caller checked that it was built from this graph): the ch algorithm
	// answers from it instead of building one.
	Hierarchy *hierarchy.Hierarchy
	// Choice is what Factory.Choose decided for this request.
	Choice Choice
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
