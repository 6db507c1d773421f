package hierarchy

import (
	"cmp"
	"math"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// lanes is the number of sources one PHAST sweep serves: their distances
// to a vertex sit side by side, 64 bytes wide or 32 narrow.
const lanes = 8

// laneValue is how a sweep state stores a distance: uint32 in narrow
// lanes, int64 in wide ones. The sweep adds and compares in int64 in
// both; narrow lanes halve the state (32 bytes a vertex instead of 64,
// 0.77 GB less at 24M vertices) and the bytes the sweep reads per arc.
type laneValue interface{ uint32 | int64 }

// Narrow lanes hold a finite distance below narrowLimit and narrowUnreached
// for none. A candidate is an int64: an unreached tail (narrowUnreached)
// plus a weight, which is not negative, is at least narrowUnreached, and
// a reached one (below narrowLimit) plus an int32 weight is below it. So
// a vertex's best candidate at its store is below narrowLimit (it fits),
// narrowUnreached (no source reached it; never more, as the sweep starts
// each vertex there), or in between: a finite distance the lanes cannot
// hold, which makes the state unfit and the batch is swept again on wide
// lanes. A distance is never stored cut short.
const (
	narrowLimit     int64 = math.MaxInt32
	narrowUnreached int64 = math.MaxUint32
)

// cleared is a vertex no source of the batch has reached, in wide lanes;
// narrowCleared, in narrow ones.
var (
	cleared       = [lanes]int64{infinity, infinity, infinity, infinity, infinity, infinity, infinity, infinity}
	narrowCleared = [lanes]int64{narrowUnreached, narrowUnreached, narrowUnreached, narrowUnreached,
		narrowUnreached, narrowUnreached, narrowUnreached, narrowUnreached}
)

// lanesState is one PHAST state of either width, as the sweeps' callers
// drive it: seeded by upward searches, swept, read. Each width has its own
// sweep loop (sweepRange); the calls through the interface are per seed,
// per range of vertices and per row copied, not per arc.
type lanesState interface {
	// seed records that lane k reaches r at distance dist going up,
	// O(1) amortised.
	seed(r int32, k int, dist int64)
	// sortSeeds puts the seeds recorded since the last sweep in the
	// order the sweep meets them, once, before any sweepRange: the
	// sweep's ranges read them concurrently. O(S log S) for S seeds.
	sortSeeds()
	// sweepRange settles rows lo..hi-1 of down (keys for weights where
	// not nil), top first, every row above hi settled, and reports
	// whether it met a distance the lanes cannot hold. It does not touch
	// the state's unfit flag, as parallel ranges share the state.
	sweepRange(down *graph.CSR, keys []int64, lo, hi int) bool
	// finish records what the ranges reported and drops the seeds.
	finish(unfit bool)
	// begin starts a batch: nothing unfit yet.
	begin()
	// markUnfit records a distance the lanes cannot hold met outside the
	// sweep (an upward search on keys that overflowed).
	markUnfit()
	// spilled reports whether narrow lanes met a distance of narrowLimit
	// or more since begin: the batch must be swept again on wide lanes.
	spilled() bool
	// overflowed reports whether wide lanes on keys met a path too long
	// for a key since begin (checkKeys).
	overflowed() bool
	// gather writes lanes first..first+count-1 as rows over the original
	// ids lo..hi-1 into dist, row i at dist[i*n:], reading the state in
	// the order rank maps the ids to.
	gather(rank []int32, n, first, count int, dist []int64, lo, hi int)
	// gather32 is gather into int32 rows, graph.Inf32 for none; it
	// reports whether every distance it met was below graph.Inf32 (where
	// one is not, that cell is left as it was).
	gather32(rank []int32, n, first, count int, dist []int32, lo, hi int) bool
	// at is lane k's distance to row r, or paths.Unreachable.
	at(r int32, k int) int64
}

// phastLanes is one PHAST state whose distances are stored as L: the
// distances of the batch's sources to every vertex, and the
// upward-search values that seed the sweep, kept apart so that the sweep
// overwrites every vertex and nothing needs clearing between batches but
// the seeds.
type phastLanes[L laneValue] struct {
	d [][lanes]L
	// unreached is a seed row no source has reached (cleared or
	// narrowCleared); limit is the least distance the lanes cannot hold.
	unreached [lanes]int64
	limit     int64
	narrow    bool
	// unfit says that a sweep or an upward search met a distance the
	// lanes cannot hold since begin: on narrow lanes, narrowLimit or
	// more (spilled); on wide lanes of keys, a key sum that reached
	// infinity (overflowed, checkKeys).
	unfit bool
	// pending are the seeds as the upward searches record them; sortSeeds
	// turns them into seeded, the vertices with a seed from the highest
	// down (the order the sweep settles them in), and seeds, the row of
	// each. A sweep walks seeded beside its rows instead of looking each
	// vertex up in an index of N entries: 4 bytes a vertex less state
	// (96 MB at 24M vertices) and one array less for the sweep to read.
	pending []seedEntry
	seeded  []int32
	seeds   [][lanes]int64
}

// seedEntry is lane k's upward distance to vertex r.
type seedEntry struct {
	r, k int32
	dist int64
}

// newNarrowLanes returns narrow lanes for n vertices (32 bytes each), O(1):
// the memory is the runtime's fresh zeroed pages, which the first sweep
// writes.
func newNarrowLanes(n int) *phastLanes[uint32] {
	return &phastLanes[uint32]{d: make([][lanes]uint32, n), unreached: narrowCleared, limit: narrowLimit, narrow: true}
}

// newWideLanes returns wide lanes for n vertices (64 bytes each), O(1).
func newWideLanes(n int) *phastLanes[int64] {
	return &phastLanes[int64]{d: make([][lanes]int64, n), unreached: cleared, limit: infinity}
}

// newLanes returns lanes of the width asked for, for n vertices.
func newLanes(n int, wide bool) lanesState {
	if wide {
		return newWideLanes(n)
	}
	return newNarrowLanes(n)
}

// laneBytes is what lanes of the width asked for hold a vertex: 8
// distances.
func laneBytes(wide bool) int64 {
	if wide {
		return lanes * 8
	}
	return lanes * 4
}

func (p *phastLanes[L]) seed(r int32, k int, dist int64) {
	p.pending = append(p.pending, seedEntry{r: r, k: int32(k), dist: dist})
	p.unfit = p.unfit || dist >= p.limit
}

func (p *phastLanes[L]) sortSeeds() {
	if len(p.pending) == 0 {
		return
	}
	// Stable, so that a lane seeded twice at one vertex keeps its last
	// value, as an index updated in place did.
	slices.SortStableFunc(p.pending, func(a, b seedEntry) int { return cmp.Compare(b.r, a.r) })
	for _, e := range p.pending {
		if n := len(p.seeded); n == 0 || p.seeded[n-1] != e.r {
			p.seeded = append(p.seeded, e.r)
			p.seeds = append(p.seeds, p.unreached)
		}
		p.seeds[len(p.seeds)-1][e.k] = e.dist
	}
	p.pending = p.pending[:0]
}

// seedsFrom is the first position of seeded (highest vertex first) below
// hi: where a sweep of rows below hi starts walking it. O(log S).
func seedsFrom(seeded []int32, hi int) int {
	at, _ := slices.BinarySearchFunc(seeded, int32(hi-1), func(r, top int32) int { return cmp.Compare(top, r) })
	return at
}

func (p *phastLanes[L]) sweepRange(down *graph.CSR, keys []int64, lo, hi int) bool {
	switch q := any(p).(type) {
	case *phastLanes[uint32]:
		return sweepDownNarrow(weightView(down), q, lo, hi)
	case *phastLanes[int64]:
		if keys != nil {
			return sweepDownKeyed(keyView(down, keys), q, lo, hi)
		}
		sweepDown(weightView(down), q, lo, hi)
	}
	return false
}

func (p *phastLanes[L]) finish(unfit bool) {
	p.unfit = p.unfit || unfit
	p.pending, p.seeds, p.seeded = p.pending[:0], p.seeds[:0], p.seeded[:0]
}

func (p *phastLanes[L]) begin()           { p.unfit = false }
func (p *phastLanes[L]) markUnfit()       { p.unfit = true }
func (p *phastLanes[L]) spilled() bool    { return p.narrow && p.unfit }
func (p *phastLanes[L]) overflowed() bool { return !p.narrow && p.unfit }

func (p *phastLanes[L]) gather(rank []int32, n, first, count int, dist []int64, lo, hi int) {
	limit := p.limit
	for v := lo; v < hi; v++ {
		x := &p.d[rank[v]]
		for i := range count {
			if d := int64(x[first+i]); d < limit {
				dist[i*n+v] = d
			} else {
				dist[i*n+v] = paths.Unreachable
			}
		}
	}
}

func (p *phastLanes[L]) gather32(rank []int32, n, first, count int, dist []int32, lo, hi int) bool {
	limit, fits := p.limit, true
	for v := lo; v < hi; v++ {
		x := &p.d[rank[v]]
		for i := range count {
			switch d := int64(x[first+i]); {
			case d >= limit:
				dist[i*n+v] = graph.Inf32
			case d < int64(graph.Inf32):
				dist[i*n+v] = int32(d)
			default:
				fits = false
			}
		}
	}
	return fits
}

func (p *phastLanes[L]) at(r int32, k int) int64 {
	if d := int64(p.d[r][k]); d < p.limit {
		return d
	}
	return paths.Unreachable
}

// sweepAll settles every row of down, top first, then drops the seeds.
// O(rows + arcs) for lanes sources.
func sweepAll(p lanesState, down *graph.CSR, keys []int64) {
	p.sortSeeds()
	p.finish(p.sweepRange(down, keys, 0, int(down.N)))
}

// sweepDownNarrow is sweepDown on narrow lanes: each candidate is added
// and compared in int64 as on wide ones, and each vertex's best is
// stored in 32 bits. It reports whether a stored distance was a finite
// one of narrowLimit or more (see narrowLimit), which the caller must
// sweep again on wide lanes: the check is one min a lane, kept out of
// the arcs' loop.
func sweepDownNarrow(down arcView[int32], p *phastLanes[uint32], lo, hi int) (unfit bool) {
	off, tails, weights := down.offsets, down.targets, down.weights
	d := p.d
	seeded, next := p.seeded, seedsFrom(p.seeded, hi)
	lowest := uint64(math.MaxUint64) // of each stored distance less narrowLimit
	for r := hi - 1; r >= lo; r-- {
		dr := narrowCleared
		if next < len(seeded) && seeded[next] == int32(r) {
			dr = p.seeds[next]
			next++
		}
		for a := off[r]; a < off[r+1]; a++ {
			dx := &d[tails[a]]
			w := int64(weights[a])
			for k := range lanes {
				if c := int64(dx[k]) + w; c < dr[k] {
					dr[k] = c
				}
			}
		}
		var x [lanes]uint32
		for k := range lanes {
			lowest = min(lowest, uint64(dr[k]-narrowLimit))
			x[k] = uint32(dr[k])
		}
		d[r] = x
	}
	return lowest < uint64(narrowUnreached-narrowLimit)
}

// sweepDownKeyed is sweepDown on metric keys, which also reports a path
// from a reached vertex that reaches infinity (a key sum past
// graph.MaxKeyedDistance), which the sweep cannot hold.
func sweepDownKeyed(down arcView[int64], p *phastLanes[int64], lo, hi int) (overflow bool) {
	off, tails, keys := down.offsets, down.targets, down.weights
	d := p.d
	seeded, next := p.seeded, seedsFrom(p.seeded, hi)
	over := false
	for r := hi - 1; r >= lo; r-- {
		dr := cleared
		if next < len(seeded) && seeded[next] == int32(r) {
			dr = p.seeds[next]
			next++
		}
		for a := off[r]; a < off[r+1]; a++ {
			dx := &d[tails[a]]
			w := keys[a]
			for k := range lanes {
				c := dx[k] + w
				if c < dr[k] {
					dr[k] = c
				}
				over = over || (c >= infinity && dx[k] < infinity)
			}
		}
		d[r] = dr
	}
	return over
}

// sweepDown is the sweep over rows lo..hi-1 of the Down arcs down on wide
// lanes, top row first, without the seeds' clean-up.
func sweepDown(down arcView[int32], p *phastLanes[int64], lo, hi int) {
	off, tails, weights := down.offsets, down.targets, down.weights
	d := p.d
	seeded, next := p.seeded, seedsFrom(p.seeded, hi)
	for r := hi - 1; r >= lo; r-- {
		dr := cleared
		if next < len(seeded) && seeded[next] == int32(r) {
			dr = p.seeds[next]
			next++
		}
		for a := off[r]; a < off[r+1]; a++ {
			dx := &d[tails[a]]
			w := int64(weights[a])
			for k := range lanes {
				if c := dx[k] + w; c < dr[k] {
					dr[k] = c
				}
			}
		}
		d[r] = dr
	}
}
