package allpairs

// ParentStrategy chooses how the fast variant builds the predecessor matrix
// of a graph whose weights are all positive. (With zero or negative
// weights, the tiled variants always derive parents by a search over tight
// arcs, and naive and row always track them; see chooseParents.)
type ParentStrategy int

const (
	// ParentsAuto derives parents from the distances when the graph is
	// sparse (m * RecoverMaxDensity <= n * n), else packs them into the
	// phase-3 distances when every distance is below PackedDistanceLimit,
	// else tracks them.
	ParentsAuto ParentStrategy = iota
	// ParentsTrack updates a cell's parent with its distance in every
	// kernel: about three times the phase-3 instructions per relaxation.
	ParentsTrack
	// ParentsRecover computes distances only, then gives each (s, v) the
	// first in-arc u -> v with dist[s][u] + w == dist[s][v]: O(n * m) work
	// instead of slowing down the O(n^3) kernels.
	ParentsRecover
)

// RecoverMaxDensity: ParentsAuto derives parents when m * RecoverMaxDensity
// <= n * n, i.e. the average in-degree is at most n / RecoverMaxDensity.
// Measured on an H200 at n = 16384 (docs/gpu-floyd-warshall.md): plain
// tracking adds about 0.70 s, packing about 0.055 s, the derivation about
// 6 ns per arc and source.
const RecoverMaxDensity = 32

// String is the strategy's flag value: auto, track or recover.
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

// Options configure all-pairs runs.
type Options struct {
	// Parents is how the fast variant builds predecessors.
	Parents ParentStrategy
	// Lookahead runs each round's pivot phases of the fast variant on a
	// second stream while the previous round's bulk finishes; without it
	// all phases run in order on one stream.
	Lookahead bool
	// MemoryLimit caps the device memory a run plans to use on each
	// device, in bytes (0: the device's free memory). A matrix that does
	// not fit under it runs out of core.
	MemoryLimit int64
}
