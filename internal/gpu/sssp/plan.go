package sssp

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/parallel"
)

// The single-source algorithm families (backend.Algorithm.Name). Every
// family takes every SSSP variant; they differ in the default an empty
// Variant picks.
const (
	// SSSPFamily defaults to VariantNearFar, or to VariantBFFlags when some
	// weight is negative.
	SSSPFamily = backend.AlgorithmSSSP
	// BellmanFordFamily defaults to VariantBFFlags.
	BellmanFordFamily = backend.AlgorithmBellmanFord
	// DijkstraFamily defaults to VariantDijkstra.
	DijkstraFamily = backend.AlgorithmDijkstra
	// AlgorithmCH answers from a contraction hierarchy (the request's, or
	// one built on the host) by PHAST sweeps on the device; non-negative
	// weights only. It has no variants.
	AlgorithmCH = backend.AlgorithmCH
)

// The single-source variants (backend.Algorithm.Variant); "" and "auto" pick
// the family's default.
const (
	// VariantBFNaive is Bellman-Ford with one thread per vertex and a
	// previous/current pair of distance arrays (Bodra's naive version).
	VariantBFNaive = backend.VariantBFNaive
	// VariantBFStride is VariantBFNaive with grid-stride loops over a
	// capped grid.
	VariantBFStride = backend.VariantBFStride
	// VariantBFFlags is VariantBFStride where only the vertices whose
	// distance dropped in the last round relax their arcs.
	VariantBFFlags = backend.VariantBFFlags
	// VariantDijkstra is the GPU Dijkstra of Martin, Torres and Gavilanes:
	// frontier and unsettled sets, relax, minimum and update kernels, one
	// distance value settled per step.
	VariantDijkstra = backend.VariantDijkstra
	// VariantNearFar is the near-far frontier search (delta-stepping with
	// a near queue and a far pile), the whole search in one cooperative
	// launch, several sources per launch. Non-negative weights only.
	VariantNearFar = backend.VariantNearFar
)

// Variants lists the single-source variants, fastest first.
var Variants = []string{VariantNearFar, VariantBFFlags, VariantBFStride, VariantBFNaive, VariantDijkstra}

// Options tune the single-source searches; zero fields take the
// defaults below.
type Options struct {
	// Delta is near-far's threshold step; 0 means DeltaFactor times the
	// mean arc weight (at least 1).
	Delta int64
	// DeltaFactor scales the mean weight when Delta is 0; 0 picks
	// SparseDeltaFactor for graphs of mean out-degree up to SparseDegree
	// (road networks, grids: many steps, each cheap, so wide buckets pay)
	// and DenseDeltaFactor above (low diameter: extra relaxations cost more
	// than the steps they save).
	DeltaFactor float64
	// ThreadsPerBlock is the threads per block of the search kernels
	// (DefaultThreadsPerBlock when 0; a multiple of 32 up to 1024).
	ThreadsPerBlock int
	// BlocksPerSource is how many blocks work on one near-far search; 0
	// sizes it from the vertex count (see nearFarBlocks).
	BlocksPerSource int
	// LocalRounds is how many rounds each near-far block may relax the
	// vertices it queued itself, in shared memory and with block barriers
	// only, before the next grid-wide step; 0 means DefaultLocalRounds,
	// a negative value none.
	LocalRounds int
	// Batch is how many sources one near-far launch solves at once; 0 fills
	// the device with BlocksPerSource-block groups, within MaxBatchBytes.
	Batch int
	// MaxBatchBytes bounds the device memory of one batch's search state
	// (DefaultMaxBatchBytes when 0).
	MaxBatchBytes int64
	// BatchStateBytes bounds the search state of one launch of the batched
	// search (DefaultBatchStateBytes when 0): past a few GiB the lanes'
	// random accesses outrun the address translation caches, and a launch
	// of more groups is slower per source than several launches of fewer.
	BatchStateBytes int64
	// StepsPerCheck is how many Bellman-Ford rounds or Dijkstra steps are
	// launched between two host checks for convergence
	// (DefaultStepsPerCheck when 0). Rounds after convergence change
	// nothing, so a larger value trades wasted launches for fewer host
	// round trips.
	StepsPerCheck int
	// Timeout bounds a near-far launch, so that a fault ends it with an
	// error instead of holding the device (DefaultSSSPTimeout when 0). A
	// batch that needs longer fails; give it more.
	Timeout time.Duration
}

// Defaults of Options, chosen from sweeps on an H200 (docs/gpu-sssp.md):
// on grids a factor of 32 was within 5% of the fastest single source (64)
// at two thirds of its relaxations, which multi-source runs pay for; on
// degree-7 random graphs 2 was fastest; 16 local rounds beat 8 and 32.
const (
	SparseDeltaFactor      = 32
	DenseDeltaFactor       = 2
	SparseDegree           = 5
	DefaultLocalRounds     = 16
	DefaultThreadsPerBlock = 256
	DefaultMaxBatchBytes   = 2 << 30
	// DefaultBatchStateBytes: measured on an H100 with the 4,900 x 4,900
	// grid (docs/performance.md).
	DefaultBatchStateBytes = 8 << 30
	DefaultStepsPerCheck   = 32
	DefaultSSSPTimeout     = time.Minute
)

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	o.LocalRounds = cmp.Or(o.LocalRounds, DefaultLocalRounds)
	o.ThreadsPerBlock = cmp.Or(o.ThreadsPerBlock, DefaultThreadsPerBlock)
	o.BatchStateBytes = cmp.Or(o.BatchStateBytes, DefaultBatchStateBytes)
	o.MaxBatchBytes = cmp.Or(o.MaxBatchBytes, DefaultMaxBatchBytes)
	o.StepsPerCheck = cmp.Or(o.StepsPerCheck, DefaultStepsPerCheck)
	o.Timeout = cmp.Or(o.Timeout, DefaultSSSPTimeout)
	return o
}

// validate rejects options no launch can honour.
func (o Options) validate() error {
	switch {
	case o.Delta < 0 || o.DeltaFactor < 0 || math.IsNaN(o.DeltaFactor):
		return fmt.Errorf("gpu: negative near-far delta %d or factor %v", o.Delta, o.DeltaFactor)
	case o.ThreadsPerBlock%32 != 0 || o.ThreadsPerBlock < 32 || o.ThreadsPerBlock > 1024:
		return fmt.Errorf("gpu: block size %d is not a multiple of 32 in 32..1024", o.ThreadsPerBlock)
	case o.BlocksPerSource < 0 || o.Batch < 0 || o.MaxBatchBytes < 0 || o.BatchStateBytes < 0 || o.StepsPerCheck < 1:
		return fmt.Errorf("gpu: negative blocks per source, batch or batch bytes, or steps per check below 1")
	case o.Timeout < 0:
		return fmt.Errorf("gpu: negative timeout %v", o.Timeout)
	}
	return nil
}

// ssspPlan is what a single-source run will do, decided on the host before
// anything touches the device.
type ssspPlan struct {
	variant string
	n       int64
	m       int64
	// lo and hi are the weight range (0, 0 without arcs).
	lo, hi int32
	// delta is near-far's threshold step; localRounds its rounds per step
	// within a block (0: none).
	delta       int64
	localRounds int
	// checked: the worst-case distance bound exceeds int32, so the run
	// checks that no path reached graph.Inf32 and fails with ErrNeedsInt64
	// if one did (near-far only).
	checked bool
	opts    Options
}

// planSSSP validates g and the request and resolves the variant and its
// parameters. O(n + m).
func planSSSP(g *graph.CSR, alg backend.Algorithm, opts Options) (ssspPlan, error) {
	opts = opts.withDefaults()
	if err := opts.validate(); err != nil {
		return ssspPlan{}, err
	}
	if err := checkCSR(g); err != nil {
		return ssspPlan{}, err
	}
	p := ssspPlan{n: int64(g.N), m: int64(g.M()), opts: opts}
	p.lo, p.hi = g.WeightRange()
	var err error
	if p.variant, p.checked, err = Choose(p.n, p.lo, p.hi, alg); err != nil {
		return ssspPlan{}, err
	}
	p.delta = opts.Delta
	if p.delta == 0 {
		factor := opts.DeltaFactor
		if factor == 0 {
			factor = DenseDeltaFactor
			if p.m <= SparseDegree*p.n {
				factor = SparseDeltaFactor
			}
		}
		p.delta = defaultDelta(g.MeanWeight(), factor)
	}
	p.localRounds = max(opts.LocalRounds, 0)
	return p, nil
}

// Choose is the part of planSSSP that needs only the vertex count and
// the weight range (lo, hi; both 0 without arcs), so that Factory.Choose
// decides on the host before any device is opened: the variant ("" and
// "auto" pick the family's default) and the int32 checks. checked reports
// a near-far run whose worst-case bound exceeds int32, which then checks
// its real distances (see ssspPlan.checked). Errors wrap device.ErrNotSupported or
// device.ErrNeedsInt64.
func Choose(n int64, lo, hi int32, alg backend.Algorithm) (variant string, checked bool, err error) {
	negative := lo < 0
	variant = alg.Variant
	if variant == backend.AlgorithmAuto {
		variant = ""
	}
	switch alg.Name {
	case SSSPFamily, "", backend.AlgorithmAuto:
		if variant == "" {
			variant = VariantNearFar
			if negative {
				variant = VariantBFFlags
			}
		}
	case BellmanFordFamily:
		if variant == "" {
			variant = VariantBFFlags
		}
	case DijkstraFamily:
		if variant == "" {
			variant = VariantDijkstra
		}
	default:
		return "", false, fmt.Errorf("gpu: single-source algorithm %q: %w (have %s, %s, %s)",
			alg.Name, device.ErrNotSupported, SSSPFamily, BellmanFordFamily, DijkstraFamily)
	}
	if !isSSSPVariant(variant) {
		return "", false, fmt.Errorf("gpu: single-source variant %q: %w (have %s)",
			variant, device.ErrNotSupported, strings.Join(Variants, ", "))
	}
	if alg.TileEdge != 0 {
		return "", false, fmt.Errorf("gpu: single-source variant %s takes no block size (have %d): %w", variant, alg.TileEdge, device.ErrNotSupported)
	}
	if negative && (variant == VariantNearFar || variant == VariantDijkstra) {
		return "", false, fmt.Errorf("gpu: %s needs non-negative weights (smallest is %d), use bellman-ford: %w",
			variant, lo, device.ErrNotSupported)
	}
	if !graph.FitsInt32Distances(n, lo, hi) {
		// Near-far detects a path reaching Inf32 (see checked), which a
		// relaxation can compute without wrapping when w < Inf32.
		if variant != VariantNearFar || negative || hi >= graph.Inf32 {
			return "", false, fmt.Errorf("%w: %d vertices with weights in [%d, %d] allow distances up to %d",
				device.ErrNeedsInt64, n, lo, hi, graph.DistanceBound(n, lo, hi))
		}
		checked = true
	}
	if negative {
		// A negative cycle drives Bellman-Ford's distances down by up to the
		// largest |weight| per round for n rounds before it is detected.
		if bound := graph.DistanceBound(n, lo, hi); 2*bound >= int64(graph.Inf32) {
			return "", false, fmt.Errorf("%w: with negative weights twice the distance bound (%d) must stay below %d",
				device.ErrNeedsInt64, bound, graph.Inf32)
		}
	}
	return variant, checked, nil
}

// defaultDelta is factor times the mean weight, at least 1 and at most
// Inf32.
func defaultDelta(mean, factor float64) int64 {
	return int64(min(max(factor*mean, 1), float64(graph.Inf32)))
}

// nearFarShape picks the blocks per source and the sources per launch.
// Every block of every source's group must be resident at once
// (residentBlocks in all) and a batch's state, nearFarRowInts int32 per
// vertex and source plus extraRowInts more (the result rows), must fit in
// maxBytes. The batch takes as many sources as fit (memory, resident
// blocks, 65535 grid rows); the resident blocks are then shared out among
// them, each source getting about one block per 16 vertices per thread but
// at most maxPerSource: more blocks per source make each step's barrier
// costlier than the extra threads are worth. Explicit blocksPerSource or
// batch (non-zero) are kept, a batch cut down to what can be resident.
func nearFarShape(n int64, sources, blockSize, residentBlocks, maxPerSource, blocksPerSource, batch int, maxBytes, extraRowInts int64) (blocks, rows int) {
	rowBytes := (nearFarRowInts+extraRowInts)*4*n + nearFarStateInts*4
	fit := int(min(int64(sources), max(maxBytes/rowBytes, 1), 65535))
	rows = batch
	if rows == 0 {
		rows = min(fit, residentBlocks)
	}
	rows = max(min(rows, fit), 1)
	blocks = blocksPerSource
	if blocks == 0 {
		want := max((n+int64(blockSize)*16-1)/(int64(blockSize)*16), 1)
		blocks = int(min(want, int64(max(maxPerSource, 1)), int64(max(residentBlocks/rows, 1))))
	}
	blocks = min(blocks, residentBlocks)
	rows = min(rows, max(residentBlocks/blocks, 1))
	return blocks, rows
}

// nearFarRowInts is the device memory of one near-far search, in int32 per
// vertex: distance, near-queue mark, far-pile flag, two near queues and
// two far piles. nearFarStateInts is its fixed state (NF_STATE).
const (
	nearFarRowInts   = 7
	nearFarStateInts = 64
)

// Per-source state of the near-far kernel, mirroring
// kernels/sssp_near_far_state.cuh (TestConstantsMatchTheKernels compares
// them).
const (
	nfAbort    = 11
	nfSteps    = 12
	nfSplits   = 13
	nfOverflow = 14
	nfRelaxed  = 16 // uint64
	nfImproved = 18 // uint64
	nfState    = nearFarStateInts
)

func isSSSPVariant(v string) bool {
	for _, s := range Variants {
		if s == v {
			return true
		}
	}
	return false
}

// checkMinChunk is the fewest offsets or arcs checkCSR gives a goroutine.
const checkMinChunk = 1 << 20

// firstBad is the smallest index of bad other than -1 (chunks in order:
// the first chunk's), or -1.
func firstBad(bad []int) int {
	for _, i := range bad {
		if i >= 0 {
			return i
		}
	}
	return -1
}

// checkCSR checks the structure the kernels index blindly: N+1 offsets from
// 0, non-decreasing, ending at the arc count, and every target a vertex.
// O(n + m).
func checkCSR(g *graph.CSR) error {
	if g == nil {
		return fmt.Errorf("gpu: nil graph")
	}
	if g.N < 0 || len(g.Offsets) != int(g.N)+1 {
		return fmt.Errorf("gpu: CSR with %d vertices has %d offsets", g.N, len(g.Offsets))
	}
	if len(g.Weights) != len(g.Targets) {
		return fmt.Errorf("gpu: CSR has %d targets but %d weights", len(g.Targets), len(g.Weights))
	}
	if g.Offsets[0] != 0 || g.Offsets[g.N] != int64(len(g.Targets)) {
		return fmt.Errorf("gpu: CSR offsets run from %d to %d for %d arcs", g.Offsets[0], g.Offsets[g.N], len(g.Targets))
	}
	// One pass over offsets and targets, on every core: a chunk keeps its
	// first bad index, and the smallest is reported.
	workers := runtime.GOMAXPROCS(0)
	badOffset, badTarget := slices.Repeat([]int{-1}, workers), slices.Repeat([]int{-1}, workers)
	parallel.Chunks(int(g.N), workers, checkMinChunk, func(w, lo, hi int) {
		for u := lo; u < hi; u++ {
			if g.Offsets[u+1] < g.Offsets[u] {
				badOffset[w] = u
				return
			}
		}
	})
	if u := firstBad(badOffset); u >= 0 {
		return fmt.Errorf("gpu: CSR offsets decrease at vertex %d", u)
	}
	parallel.Chunks(len(g.Targets), workers, checkMinChunk, func(w, lo, hi int) {
		for i, v := range g.Targets[lo:hi] {
			if v < 0 || v >= g.N {
				badTarget[w] = lo + i
				return
			}
		}
	})
	if i := firstBad(badTarget); i >= 0 {
		return fmt.Errorf("gpu: CSR arc %d points to %d, outside 0..%d", i, g.Targets[i], g.N-1)
	}
	return nil
}
