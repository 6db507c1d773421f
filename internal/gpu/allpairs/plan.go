package allpairs

import (
	"fmt"
	"strings"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/graph"
)

// AllPairsFamily is the all-pairs algorithm family: a Choice with this
// name computes the whole matrix on the device and streams the requested
// rows.
const AllPairsFamily = backend.AlgorithmFloydWarshall

// The variants of the floyd-warshall family (backend.Algorithm.Variant).
const (
	// VariantNaive launches once per pivot vertex k, one thread per cell.
	VariantNaive = backend.VariantNaive
	// VariantRow launches once per k, one thread per row.
	VariantRow = backend.VariantRow
	// VariantBlocked is the three-phase tiled algorithm with shared memory
	// (Katz and Kider); Algorithm.TileEdge sets the tile edge.
	VariantBlocked = backend.VariantBlocked
	// VariantFast is the default: 128 x 128 tiles, register-tiled phase 3
	// with 16-byte loads and fused add-min, n padded to the tile.
	VariantFast = backend.VariantFast
)

// Variants lists the floyd-warshall variants, default first.
var Variants = []string{VariantFast, VariantBlocked, VariantNaive, VariantRow}

const (
	// FastTile is the tile edge of the fast variant.
	FastTile = 128
	// DefaultTileEdge is the blocked variant's tile edge when
	// Algorithm.TileEdge is 0.
	DefaultTileEdge = 32
	// MaxTileEdge bounds the blocked variant's tile edge: one thread per
	// cell, at most 1024 threads per block.
	MaxTileEdge = 32
)

// parentMethod is how a run obtains the predecessor matrix.
type parentMethod int

const (
	// parentsNone: distances only.
	parentsNone parentMethod = iota
	// parentsTracked: the kernels update a cell's parent with its distance.
	parentsTracked
	// parentsFirstTight: derived after the distances, each (s, v) taking
	// its first tight in-arc (apsp_recover_parents; positive weights only).
	parentsFirstTight
	// parentsSearch: derived after the distances by a search over tight
	// arcs from each source (apsp_search_parents; loop-free with zero and
	// negative weights).
	parentsSearch
	// parentsPacked: the fast variant's phases 1 and 2 track parents and
	// phase 3 carries the pivot in the distances' low bits (PACK_SHIFT in
	// kernels/floyd_warshall_fast.cuh; positive weights, distances below
	// PackedDistanceLimit).
	parentsPacked
)

// PackedDistanceLimit bounds the distances (graph.DistanceBound) for which
// the fast variant packs parents into phase 3's distances: 22 bits remain
// beside the 8 of the pivot.
const PackedDistanceLimit = 1<<22 - 1

// allPairsPlan is what an all-pairs run will do, decided on the host before
// anything touches the device.
type allPairsPlan struct {
	variant string
	// n is the vertex count; pitch the padded row length (a multiple of
	// tile), also the padded vertex count.
	n, pitch int64
	// tile is the blocked or fast tile edge; 1 for naive and row.
	tile int64
	m    int64
	// parents: a predecessor matrix is wanted, obtained by method.
	parents bool
	method  parentMethod
	// negative: some arc is negative, so distances above threshold (the
	// distance bound) are unreachable sums to reset to Inf32.
	negative  bool
	threshold int64
	// positive: every weight is above zero (or there are no arcs), so a
	// first tight arc gives loop-free parents.
	positive bool
}

// derives reports whether parents are computed after the distances.
func (p allPairsPlan) derives() bool {
	return p.method == parentsFirstTight || p.method == parentsSearch
}

// planAllPairs validates the request and picks the variant's parameters.
func planAllPairs(e *graph.EdgeList, alg backend.Algorithm, withParents bool, strategy ParentStrategy) (allPairsPlan, error) {
	if err := e.Validate(); err != nil {
		return allPairsPlan{}, fmt.Errorf("gpu: %w", err)
	}
	lo, hi := e.WeightRange()
	p, err := chooseAllPairs(int64(e.N), lo, hi, alg)
	if err != nil {
		return allPairsPlan{}, err
	}
	p.m, p.parents = int64(e.M()), withParents
	p.positive = p.m == 0 || lo > 0
	if withParents {
		p.method = chooseParents(p, lo, hi, strategy)
	}
	return p, nil
}

// Choose is what a run of alg would use on a graph of n vertices with
// weights lo..hi, decided on the host before any device is opened: alg
// with its variant resolved (the default when none is given) and, for
// blocked, its tile. Errors wrap device.ErrNotSupported or
// device.ErrNeedsInt64.
func Choose(n int64, lo, hi int32, alg backend.Algorithm) (backend.Algorithm, error) {
	p, err := chooseAllPairs(n, lo, hi, alg)
	if err != nil {
		return backend.Algorithm{}, err
	}
	alg.Variant = p.variant
	if p.variant == VariantBlocked {
		alg.TileEdge = int(p.tile)
	}
	return alg, nil
}

// chooseAllPairs is the part of planAllPairs that needs only the vertex
// count and the weight range (lo, hi; both 0 without arcs), so that
// Factory.Choose decides on the host before any device is opened: the
// variant and its tile, and the int32 checks. Errors wrap ErrNotSupported
// or ErrNeedsInt64.
func chooseAllPairs(n int64, lo, hi int32, alg backend.Algorithm) (allPairsPlan, error) {
	if alg.Name != "" && alg.Name != AllPairsFamily {
		return allPairsPlan{}, fmt.Errorf("gpu: all-pairs algorithm %q: %w (have %s)", alg.Name, device.ErrNotSupported, AllPairsFamily)
	}
	p := allPairsPlan{variant: alg.Variant, n: n}
	if p.variant == "" || p.variant == backend.AlgorithmAuto {
		p.variant = VariantFast
	}
	switch p.variant {
	case VariantNaive, VariantRow:
		p.tile = 1
		if alg.TileEdge != 0 {
			return allPairsPlan{}, fmt.Errorf("gpu: variant %s takes no block size (have %d): %w", p.variant, alg.TileEdge, device.ErrNotSupported)
		}
	case VariantBlocked:
		p.tile = int64(alg.TileEdge)
		if p.tile == 0 {
			p.tile = DefaultTileEdge
		}
		if p.tile < 2 || p.tile > MaxTileEdge {
			return allPairsPlan{}, fmt.Errorf("gpu: blocked block size %d outside 2..%d: %w", p.tile, MaxTileEdge, device.ErrNotSupported)
		}
	case VariantFast:
		p.tile = FastTile
		if alg.TileEdge != 0 && alg.TileEdge != FastTile {
			return allPairsPlan{}, fmt.Errorf("gpu: variant fast has a fixed block size of %d (have %d): %w", FastTile, alg.TileEdge, device.ErrNotSupported)
		}
	default:
		return allPairsPlan{}, fmt.Errorf("gpu: floyd-warshall variant %q: %w (have %s)",
			p.variant, device.ErrNotSupported, strings.Join(Variants, ", "))
	}
	p.pitch = (p.n + p.tile - 1) / p.tile * p.tile

	if !graph.FitsInt32Distances(p.n, lo, hi) {
		return allPairsPlan{}, fmt.Errorf("%w: %d vertices with weights in [%d, %d] allow distances up to %d",
			device.ErrNeedsInt64, p.n, lo, hi, graph.DistanceBound(p.n, lo, hi))
	}
	if lo < 0 {
		bound := graph.DistanceBound(p.n, lo, hi)
		if 2*bound >= int64(graph.Inf32) {
			return allPairsPlan{}, fmt.Errorf("%w: with negative weights twice the distance bound (%d) must stay below %d",
				device.ErrNeedsInt64, bound, graph.Inf32)
		}
		p.negative, p.threshold = true, bound
	}
	return p, nil
}

// chooseParents picks how a run with parents gets them. The kernels that
// visit pivots in plain Floyd-Warshall order (naive, row) track parents
// correctly for any weights. The tiled ones (blocked, fast) let a cell see
// pivot rows already improved by later pivots of the same round; with
// positive weights the tracked parents are still a tree, but zero-weight
// cycles can close loops, so with weights <= 0 they derive parents by
// search instead. With positive weights the fast variant derives them from
// the first tight arc when the graph is sparse, else packs them into phase 3
// when distances are small enough, else tracks them (see ParentStrategy).
func chooseParents(p allPairsPlan, lo, hi int32, strategy ParentStrategy) parentMethod {
	switch {
	case p.variant == VariantNaive || p.variant == VariantRow:
		return parentsTracked
	case !p.positive:
		return parentsSearch
	case p.variant == VariantBlocked || strategy == ParentsTrack:
		return parentsTracked
	case strategy == ParentsRecover || p.m*RecoverMaxDensity <= p.n*p.n:
		return parentsFirstTight
	case graph.DistanceBound(p.n, lo, hi) < PackedDistanceLimit:
		return parentsPacked
	}
	return parentsTracked
}

// deviceBytes is the device memory the run needs.
func (p allPairsPlan) deviceBytes() int64 {
	cells := p.pitch * p.pitch
	b := cells*4 + p.m*12 + 8
	if p.parents {
		b += cells * 4
	}
	if p.derives() {
		b += (p.n+1)*8 + p.m*8
	}
	return b
}

// describe names the run for errors and logs.
func (p allPairsPlan) describe() string {
	s := fmt.Sprintf("floyd-warshall/%s on %d vertices", p.variant, p.n)
	if p.pitch != p.n {
		s += fmt.Sprintf(" (padded to %d)", p.pitch)
	}
	switch p.method {
	case parentsTracked, parentsPacked:
		s += " with parents"
	case parentsFirstTight, parentsSearch:
		s += " with parents derived from the distances"
	}
	return s
}
