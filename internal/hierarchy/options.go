package hierarchy

import (
	"fmt"
	"runtime"
)

// Ordering is the priority that decides which vertices are contracted
// first: the lowest priority goes first.
type Ordering int

const (
	// OrderQuotient ranks a vertex by its depth (the length of the longest
	// chain of contractions below it) plus added over removed arcs plus
	// added over removed original-arc hops, the heuristic of the
	// customizable CH papers and RoutingKit.
	OrderQuotient Ordering = iota
	// OrderEdgeDifference ranks a vertex by added minus removed arcs
	// (Geisberger's edge difference) plus its contracted neighbours plus
	// its depth.
	OrderEdgeDifference
)

// String names the ordering.
func (o Ordering) String() string {
	switch o {
	case OrderQuotient:
		return "quotient"
	case OrderEdgeDifference:
		return "edge-difference"
	}
	return "unknown"
}

// BuildOptions are the settings of Build; DefaultBuildOptions gives them.
type BuildOptions struct {
	// Workers is the number of goroutines that contract; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Ordering is the vertex priority.
	Ordering Ordering
	// WitnessSettled bounds the vertices one witness search settles: a
	// search that stops early adds a shortcut that may not be needed,
	// never misses one that is.
	WitnessSettled int
	// SimulationSettled is the same bound for the witness searches that
	// only score a vertex: a lower one makes scoring cheaper and the
	// scores rougher. It is 25 by default, a twentieth of WitnessSettled:
	// on road networks most scoring searches end at their distance bound
	// before it; on long arcs (Delaware's) the lower bound cut the work
	// by a third and left the order as good, where 10 or 15 made it
	// worse (measured in docs/road-networks.md).
	SimulationSettled int
	// X and Y, when given (one entry per vertex), are coordinates that
	// order the vertices of each level along a Z curve, for a faster PHAST
	// sweep, and number the graph while it is contracted, for faster
	// witness searches (localityOrder); without them a level goes by
	// vertex id.
	X, Y []int32
	// Checksum identifies the graph the hierarchy was built from; it is
	// kept in Hierarchy.GraphChecksum.
	Checksum string
	// WorkLimit, when above 0, bounds the vertices the witness searches
	// settle in all, scoring included, to WorkLimit per vertex of the
	// graph; past it Build stops with a *WorkLimitError. The work, and so
	// whether Build stops, depends on the graph and the options, not on
	// the number of workers.
	WorkLimit float64
	// Progress, when set, is called after every round; an error it
	// returns stops Build, which returns that error.
	Progress func(Progress) error
}

// Progress is the state of a Build after a round. It depends on the graph
// and the options, not on the number of workers.
type Progress struct {
	// Round counts the rounds so far, from 1.
	Round int
	// Contracted and Remaining count vertices; RemainingArcs counts the
	// out-arcs among the remaining vertices.
	Contracted, Remaining, RemainingArcs int
	// Shortcuts counts the shortcut arcs added or lowered so far.
	Shortcuts int
	// Settled counts the vertices the witness searches settled so far,
	// scoring included: the work of the build.
	Settled int64
}

// WorkLimitError is what Build returns when its witness searches settle
// more vertices than WithWorkLimit allows: the graph contracts too slowly
// to be worth a hierarchy.
type WorkLimitError struct {
	// Limit is the bound, in settled vertices per vertex of the graph.
	Limit float64
	// Round and Contracted say how far the build went, of N vertices.
	Round, Contracted, N int
}

func (e *WorkLimitError) Error() string {
	return fmt.Sprintf("hierarchy: the witness searches settled more than %g vertices per vertex in round %d, with %d of %d vertices contracted",
		e.Limit, e.Round, e.Contracted, e.N)
}

// DefaultBuildOptions returns the settings Build starts from, O(1).
func DefaultBuildOptions() BuildOptions {
	return BuildOptions{Ordering: OrderQuotient, WitnessSettled: 500, SimulationSettled: 25}
}

// Option changes one setting of Build.
type Option func(*BuildOptions)

// WithWorkers sets the number of contracting goroutines (0: all cores).
func WithWorkers(n int) Option { return func(o *BuildOptions) { o.Workers = n } }

// WithOrdering sets the vertex priority.
func WithOrdering(ord Ordering) Option { return func(o *BuildOptions) { o.Ordering = ord } }

// WithWitnessSettled bounds the vertices each witness search settles.
func WithWitnessSettled(n int) Option { return func(o *BuildOptions) { o.WitnessSettled = n } }

// WithSimulationSettled bounds the vertices each scoring witness search
// settles.
func WithSimulationSettled(n int) Option { return func(o *BuildOptions) { o.SimulationSettled = n } }

// WithCoordinates gives vertex coordinates (graph.Vertices X and Y) to lay
// out the hierarchy by; the answers do not depend on them.
func WithCoordinates(x, y []int32) Option { return func(o *BuildOptions) { o.X, o.Y = x, y } }

// WithProgress calls f after every round of contraction; an error from f
// stops Build with that error.
func WithProgress(f func(Progress) error) Option { return func(o *BuildOptions) { o.Progress = f } }

// WithWorkLimit bounds the work of Build to perVertex settled vertices
// per vertex of the graph (0: no bound).
func WithWorkLimit(perVertex float64) Option {
	return func(o *BuildOptions) { o.WorkLimit = perVertex }
}

// WithChecksum records the checksum of the input graph in the hierarchy.
func WithChecksum(sum string) Option { return func(o *BuildOptions) { o.Checksum = sum } }

// workers resolves Workers, O(1).
func (o BuildOptions) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// defaultWorkers is the number of goroutines queries use by default.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }
