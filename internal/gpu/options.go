package gpu

// ParentStrategy chooses how the fast variant builds the predecessor matrix.
type ParentStrategy int

const (
	// ParentsAuto recovers parents after the distances when every weight
	// is positive and the graph is sparse (RecoverMaxDensity), and tracks
	// them in the kernels otherwise.
	ParentsAuto ParentStrategy = iota
	// ParentsTrack updates the parent of a cell with its distance, in every
	// kernel.
	ParentsTrack
	// ParentsRecover computes distances only, then gives each (s, v) the
	// first in-arc u -> v with dist[s][u] + w == dist[s][v]: O(n * m) work
	// instead of doubling the kernels' register and memory traffic. Needs
	// positive weights (zero-weight cycles could make parents loop).
	ParentsRecover
)

// RecoverMaxDensity: ParentsAuto recovers parents when m * RecoverMaxDensity
// <= n * n, i.e. the average in-degree is at most n / RecoverMaxDensity.
const RecoverMaxDensity = 64

func (s ParentStrategy) String() string {
	switch s {
	case ParentsAuto:
		return "auto"
	case ParentsTrack:
		return "track"
	case ParentsRecover:
		return "recover"
	}
	return "ParentStrategy(?)"
}

// Option configures New.
type Option func(*options)

type options struct {
	device  int
	parents ParentStrategy
}

func defaultOptions() options { return options{device: 0, parents: ParentsAuto} }

// WithDevice selects the GPU by ordinal (default 0).
func WithDevice(ordinal int) Option { return func(o *options) { o.device = ordinal } }

// WithParentStrategy sets how the fast variant builds predecessors
// (default ParentsAuto).
func WithParentStrategy(s ParentStrategy) Option { return func(o *options) { o.parents = s } }
