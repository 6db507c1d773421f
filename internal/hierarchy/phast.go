package hierarchy

import (
	"fmt"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// lanes is the number of sources one PHAST sweep serves: their distances
// to a vertex sit side by side, 64 bytes, one cache line.
const lanes = 8

// cleared is a vertex no source of the batch has reached.
var cleared = [lanes]int64{infinity, infinity, infinity, infinity, infinity, infinity, infinity, infinity}

// Trees writes the distances from each source (original ids) to every
// vertex: dist[i*N + v] is the distance from sources[i] to original vertex
// v, or paths.Unreachable. It runs PHAST: an upward search from each
// source, then one sweep over the vertices in descending rank that pulls
// distances down the Down arcs, for lanes sources at once, the sweep
// reading the hierarchy in memory order. Batches run on workers
// goroutines (0: all cores), each with 68 * N bytes of scratch space.
// O(len(sources) * (search space + N + arcs) / lanes) memory traffic per
// source amortised.
func (h *Hierarchy) Trees(sources []int32, dist []int64, workers int) error {
	n := int(h.N)
	if len(dist) != len(sources)*n {
		return fmt.Errorf("hierarchy: distance buffer holds %d values, want %d sources x %d vertices", len(dist), len(sources), n)
	}
	for _, s := range sources {
		if err := h.checkVertex(s); err != nil {
			return err
		}
	}
	if workers <= 0 {
		workers = defaultWorkers()
	}
	batches := (len(sources) + lanes - 1) / lanes
	// Fewer batches than workers: each sweep settles its levels on the
	// workers left over, so one source's tree uses every core too.
	sweepWorkers := max(1, workers/max(1, batches))
	pool := h.pool()
	var over atomic.Bool
	forChunks(batches, workers, 1, func(_, lo, hi int) {
		s := pool.get()
		defer pool.put(s)
		p := pool.getLanes()
		defer pool.putLanes(p)
		for b := lo; b < hi; b++ {
			batch := sources[b*lanes : min(len(sources), (b+1)*lanes)]
			h.sweepBatch(s, p, batch, sweepWorkers)
			if p.overflow {
				over.Store(true)
			}
			h.gatherRows(p, 0, len(batch), dist[b*lanes*n:], 0, n)
		}
	})
	return checkKeys(over.Load())
}

// sweepBatch runs PHAST for up to lanes sources (original ids, checked):
// their upward searches seed p, and the sweep, on up to workers
// goroutines, leaves their distances to every vertex in p.d, lane k for
// sources[k].
func (h *Hierarchy) sweepBatch(s *upSearch, p *phastLanes, sources []int32, workers int) {
	p.overflow = false
	for k, src := range sources {
		s.run(h, true, h.Rank[src], false)
		p.overflow = p.overflow || s.overflow
		for _, v := range s.settled {
			p.seed(v, k, s.dist[v])
		}
	}
	h.sweep(p, workers)
}

// gatherRows writes lanes first..first+count-1 of p as rows over the
// original ids into dist, row i of them at dist[i*N:], for the original
// ids lo..hi-1: one pass over the ids for all of them, each vertex's
// lanes sharing a cache line.
func (h *Hierarchy) gatherRows(p *phastLanes, first, count int, dist []int64, lo, hi int) {
	n := int(h.N)
	for v := lo; v < hi; v++ {
		x := &p.d[h.Rank[v]]
		for i := range count {
			if d := x[first+i]; d < infinity {
				dist[i*n+v] = d
			} else {
				dist[i*n+v] = paths.Unreachable
			}
		}
	}
}

// TreeSweep is one PHAST sweep of up to TreeLanes sources whose rows are
// copied out in pieces: a caller that hands rows over in blocks smaller
// than a sweep's (to bound the memory of the rows in flight) sweeps once
// and copies a few rows at a time, from any number of goroutines, since
// Rows only reads. It owns its TreeSweepBytes of state, outside the
// hierarchy's pool, so that a caller bounding its memory decides how many
// exist and reuses them: Run may be called again once the rows of the
// last one are copied.
type TreeSweep struct {
	h       *Hierarchy
	p       *phastLanes
	workers int
	count   int
}

// NewTreeSweep returns a sweep's state, O(N), whose sweeps settle each
// level on up to workers goroutines (at least one): a caller that holds
// fewer states than it has cores, to bound its memory, still sweeps on
// all of them.
func (h *Hierarchy) NewTreeSweep(workers int) *TreeSweep {
	return &TreeSweep{h: h, p: newPhastLanes(int(h.N)), workers: max(1, workers)}
}

// TreeSweepBytes is the memory one TreeSweep holds: 8 distances of 8
// bytes and a 4-byte seed index per vertex, 68 N bytes (its seeds, a few
// hundred vertices per source, are left out).
func (h *Hierarchy) TreeSweepBytes() int64 { return (lanes*8 + 4) * int64(h.N) }

// TreeSweepSearchBytes is the scratch space a running TreeSweep takes
// from the hierarchy's pool for its upward searches beside its own
// state: a distance of 8 bytes and a stamp of 4 per vertex, 12 N bytes,
// held while it runs and reused by the next sweep.
func (h *Hierarchy) TreeSweepSearchBytes() int64 { return 12 * int64(h.N) }

// Run sweeps for sources (original ids, at most TreeLanes of them), whose
// rows Rows then copies. O(search spaces + N + arcs).
func (t *TreeSweep) Run(sources []int32) error {
	if len(sources) > lanes {
		return fmt.Errorf("hierarchy: a sweep serves at most %d sources, got %d", lanes, len(sources))
	}
	for _, s := range sources {
		if err := t.h.checkVertex(s); err != nil {
			return err
		}
	}
	pool := t.h.pool()
	s := pool.get()
	defer pool.put(s)
	t.h.sweepBatch(s, t.p, sources, t.workers)
	t.count = len(sources)
	return checkKeys(t.p.overflow)
}

// Rows writes the rows of the last Run's sources first..first+count-1
// into dist (count * N values), as Trees would: dist[i*N + v] is the
// distance from the source first+i to original vertex v, or
// paths.Unreachable. Safe to call from several goroutines at once. O(N).
func (t *TreeSweep) Rows(first, count int, dist []int64) error {
	n := int(t.h.N)
	if first < 0 || count < 0 || first+count > t.count || len(dist) != count*n {
		return fmt.Errorf("hierarchy: rows %d..%d of a sweep of %d sources into %d values", first, first+count-1, t.count, len(dist))
	}
	// A sweep's state is 68 bytes a vertex for its 8 rows: copying one
	// row reads all of it, so the copy is spread like the sweep.
	forChunks(n, t.workers, gatherChunk, func(_, lo, hi int) {
		t.h.gatherRows(t.p, first, count, dist, lo, hi)
	})
	return nil
}

// phastLanes is one worker's PHAST state: the distances of the batch's
// sources to every vertex, and the upward-search values that seed the
// sweep, kept apart so that the sweep overwrites every vertex and nothing
// needs clearing between batches but the seeds.
type phastLanes struct {
	d [][lanes]int64
	// overflow, on metric keys, says that a sweep or an upward search met
	// a path too long for a key since the lanes were taken (checkKeys).
	overflow bool
	seedAt   []int32 // index in seeds, or -1
	seeds    [][lanes]int64
	seeded   []int32 // the vertices with a seed
}

// newPhastLanes returns the state for n vertices, O(n).
func newPhastLanes(n int) *phastLanes {
	p := &phastLanes{d: make([][lanes]int64, n), seedAt: make([]int32, n)}
	for r := range p.seedAt {
		p.seedAt[r] = -1
	}
	return p
}

// seed records that lane k reaches r at distance dist going up, O(1)
// amortised.
func (p *phastLanes) seed(r int32, k int, dist int64) {
	i := p.seedAt[r]
	if i < 0 {
		i = int32(len(p.seeds))
		p.seedAt[r] = i
		p.seeds = append(p.seeds, cleared)
		p.seeded = append(p.seeded, r)
	}
	p.seeds[i][k] = dist
}

// sweep settles every vertex from the top rank down: a vertex's distance
// is the best of its seed and, over its Down arcs x -> r, the distance of
// x (already final, x > r) plus the weight (the key, in a hierarchy
// WithMetricKeys made). It then drops the seeds. With more than one
// worker it settles a level (Levels) at a time, each level's vertices
// split among them: no arc joins two vertices of a level, so they read
// only final distances, and the result is the serial sweep's. O(N +
// arcs) for lanes sources.
func (h *Hierarchy) sweep(p *phastLanes, workers int) {
	var keys []int64
	if h.keys != nil {
		keys = h.keys.down
	}
	if workers <= 1 || h.N < 2*parallelSweepChunk {
		p.sweep(&h.Down, keys)
		return
	}
	levels := h.Levels()
	var over atomic.Bool
	for l := len(levels) - 2; l >= 0; l-- {
		lo, hi := int(levels[l]), int(levels[l+1])
		forChunks(hi-lo, workers, parallelSweepChunk, func(_, a, b int) {
			if p.sweepRange(&h.Down, keys, lo+a, lo+b) {
				over.Store(true)
			}
		})
	}
	p.overflow = p.overflow || over.Load()
	p.dropSeeds()
}

// gatherChunk is the vertices a goroutine copying a sweep's rows takes
// at once.
const gatherChunk = 1 << 16

// parallelSweepChunk is the vertices a worker of a parallel sweep takes
// at once: a level smaller than two of them is settled by one.
const parallelSweepChunk = 4096

// sweep settles the rows of down (the hierarchy's Down arcs, or a
// selection's), top row first, reading keys instead of the weights where
// keys is not nil, then drops the seeds. O(rows + arcs) for lanes sources.
func (p *phastLanes) sweep(down *graph.CSR, keys []int64) {
	p.overflow = p.sweepRange(down, keys, 0, len(p.d)) || p.overflow
	p.dropSeeds()
}

// sweepRange settles rows lo..hi-1 of down, from the top: every row above
// hi must be settled. It reports whether a keyed sweep met a path too long
// for a key (p.overflow is not touched, as parallel ranges share p).
func (p *phastLanes) sweepRange(down *graph.CSR, keys []int64, lo, hi int) (overflow bool) {
	if keys != nil {
		return sweepDownKeyed(keyView(down, keys), p, lo, hi)
	}
	sweepDown(weightView(down), p, lo, hi)
	return false
}

// dropSeeds forgets the seeds of the sweep just run.
func (p *phastLanes) dropSeeds() {
	for _, r := range p.seeded {
		p.seedAt[r] = -1
	}
	p.seeds, p.seeded = p.seeds[:0], p.seeded[:0]
}

// sweepDownKeyed is sweepDown on metric keys, which also reports a path
// from a reached vertex that reaches infinity (a key sum past
// graph.MaxKeyedDistance), which the sweep cannot hold.
func sweepDownKeyed(down arcView[int64], p *phastLanes, lo, hi int) (overflow bool) {
	off, tails, keys := down.offsets, down.targets, down.weights
	d := p.d
	over := false
	for r := hi - 1; r >= lo; r-- {
		dr := cleared
		if i := p.seedAt[r]; i >= 0 {
			dr = p.seeds[i]
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

// sweepDown is the sweep over rows lo..hi-1 of the Down arcs down, top row
// first, without the seeds' clean-up.
func sweepDown(down arcView[int32], p *phastLanes, lo, hi int) {
	off, tails, weights := down.offsets, down.targets, down.weights
	d := p.d
	for r := hi - 1; r >= lo; r-- {
		dr := cleared
		if i := p.seedAt[r]; i >= 0 {
			dr = p.seeds[i]
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

// TreeLanes is the number of sources one PHAST sweep serves: Trees is at
// its most efficient on a multiple of it.
const TreeLanes = lanes
