package hierarchy

import (
	"fmt"
	"sync/atomic"
)

// Trees writes the distances from each source (original ids) to every
// vertex: dist[i*N + v] is the distance from sources[i] to original vertex
// v, or paths.Unreachable. It runs PHAST: an upward search from each
// source, then one sweep over the vertices in descending rank that pulls
// distances down the Down arcs, for lanes sources at once, the sweep
// reading the hierarchy in memory order. Batches run on workers
// goroutines (0: all cores), each with the scratch space of a TreeSweep
// (TreeSweepBytes). O(len(sources) * (search space + N + arcs) / lanes)
// memory traffic per source amortised.
func (h *Hierarchy) Trees(sources []int32, dist []int64, workers int) error {
	return h.trees(sources, dist, workers, h.wideLanes())
}

// trees is Trees on lanes of the width asked for: narrow ones move to
// wide ones for the rest of a worker's batches once a batch meets a
// distance they cannot hold (sweeping that batch again), so the rows are
// the same at either width.
func (h *Hierarchy) trees(sources []int32, dist []int64, workers int, wide bool) error {
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
		p := pool.getLanes(wide)
		defer func() { pool.putLanes(p) }()
		for b := lo; b < hi; b++ {
			batch := sources[b*lanes : min(len(sources), (b+1)*lanes)]
			h.sweepBatch(s, p, batch, sweepWorkers)
			if p.spilled() {
				// A distance past narrow lanes: this batch and the
				// worker's next ones sweep on wide lanes.
				pool.putLanes(p)
				p = pool.getLanes(true)
				h.sweepBatch(s, p, batch, sweepWorkers)
			}
			if p.overflowed() {
				over.Store(true)
			}
			p.gather(h.Rank, n, 0, len(batch), dist[b*lanes*n:], 0, n)
		}
	})
	return checkKeys(over.Load())
}

// sweepBatch runs PHAST for up to lanes sources (original ids, checked):
// their upward searches seed p, and the sweep, on up to workers
// goroutines, leaves their distances to every vertex in p, lane k for
// sources[k].
func (h *Hierarchy) sweepBatch(s *upSearch, p lanesState, sources []int32, workers int) {
	p.begin()
	for k, src := range sources {
		s.run(h, true, h.Rank[src], false)
		if s.overflow {
			p.markUnfit()
		}
		for _, v := range s.settled {
			p.seed(v, k, s.dist[v])
		}
	}
	h.sweep(p, workers)
}

// wideLanes says which lanes h's sweeps start on: wide on metric keys,
// whose sums pass 2^31 as a rule, narrow otherwise.
func (h *Hierarchy) wideLanes() bool { return h.keys != nil }

// TreeSweep is one PHAST sweep of up to TreeLanes sources whose rows are
// copied out in pieces: a caller that hands rows over in blocks smaller
// than a sweep's (to bound the memory of the rows in flight) sweeps once
// and copies a few rows at a time, from any number of goroutines, since
// Rows only reads. It owns its TreeSweepBytes of state and its
// searches' TreeSweepSearchBytes, outside the hierarchy's pool, so that
// a caller bounding its memory decides how many exist and reuses them:
// Run may be called again once the rows of the last one are copied.
type TreeSweep struct {
	h *Hierarchy
	// p is narrow lanes until a sweep meets a distance they cannot
	// hold, wide ones from then on (and always on metric keys).
	p       lanesState
	search  *upSearch // its upward searches' scratch (TreeSweepSearchBytes)
	workers int
	count   int
}

// NewTreeSweep returns a sweep's state, O(N), whose sweeps settle each
// level on up to workers goroutines (at least one): a caller that holds
// fewer states than it has cores, to bound its memory, still sweeps on
// all of them.
func (h *Hierarchy) NewTreeSweep(workers int) *TreeSweep {
	return h.newTreeSweep(workers, h.wideLanes())
}

// newTreeSweep is NewTreeSweep on lanes of the width asked for.
func (h *Hierarchy) newTreeSweep(workers int, wide bool) *TreeSweep {
	return &TreeSweep{h: h, p: newLanes(int(h.N), wide), workers: max(1, workers)}
}

// TreeSweepBytes is the memory one TreeSweep holds: 8 distances per
// vertex, of 4 bytes (32 N bytes) but on metric keys (8 bytes: 64 N). Its
// seeds, a few hundred vertices per source, are left out. A sweep whose
// distances reach 2^31 - 1 moves to 8-byte lanes, 64 N bytes, for the
// rest of its runs: on a road
// network weighed in milliseconds, a trip of over 24 days; in metres, of
// over 2 million km.
func (h *Hierarchy) TreeSweepBytes() int64 { return laneBytes(h.wideLanes()) * int64(h.N) }

// TreeSweepSearchBytes is the scratch space a TreeSweep holds for its
// upward searches beside its state: a distance of 8 bytes and a stamp of
// 4 per vertex, 12 N bytes, made on its first Run and kept, of which the
// searches touch a few hundred vertices a source. It is the sweep's own,
// so that a caller's budget counts it; taken from the hierarchy's pool
// for each Run, when that pool was a sync.Pool, it was dropped by the
// collections between two sweeps and made again, zeroed, for the next:
// at 24M vertices 288 MB written and left to the collector a sweep.
func (h *Hierarchy) TreeSweepSearchBytes() int64 { return 12 * int64(h.N) }

// Run sweeps for sources (original ids, at most TreeLanes of them), whose
// rows Rows then copies. O(search spaces + N + arcs); twice that, once,
// for the sweep that moves the state to wide lanes.
func (t *TreeSweep) Run(sources []int32) error {
	if len(sources) > lanes {
		return fmt.Errorf("hierarchy: a sweep serves at most %d sources, got %d", lanes, len(sources))
	}
	for _, s := range sources {
		if err := t.h.checkVertex(s); err != nil {
			return err
		}
	}
	if t.search == nil {
		t.search = newUpSearch(t.h.N)
	}
	s := t.search
	t.h.sweepBatch(s, t.p, sources, t.workers)
	if t.p.spilled() {
		t.p = nil // let the narrow lanes go before the wide ones are made
		t.p = newWideLanes(int(t.h.N))
		t.h.sweepBatch(s, t.p, sources, t.workers)
	}
	t.count = len(sources)
	return checkKeys(t.p.overflowed())
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
	// A sweep's state holds all of its 8 rows side by side: copying one
	// row reads all of it, so the copy is spread like the sweep.
	forChunks(n, t.workers, gatherChunk, func(_, lo, hi int) {
		t.p.gather(t.h.Rank, n, first, count, dist, lo, hi)
	})
	return nil
}

// Rows32 is Rows into int32 rows, graph.Inf32 for no path (the width
// results.Rows.Dist32 holds), for a caller that keeps rows at 4 bytes a
// cell: it reports whether every distance of the rows is below
// graph.Inf32, and where one is not, dist is not all written and the
// caller copies the rows with Rows instead. On a road network weighed in
// milliseconds Inf32 is a trip of over 12 days. O(N).
func (t *TreeSweep) Rows32(first, count int, dist []int32) (bool, error) {
	n := int(t.h.N)
	if first < 0 || count < 0 || first+count > t.count || len(dist) != count*n {
		return false, fmt.Errorf("hierarchy: rows %d..%d of a sweep of %d sources into %d values", first, first+count-1, t.count, len(dist))
	}
	var over atomic.Bool
	forChunks(n, t.workers, gatherChunk, func(_, lo, hi int) {
		if !t.p.gather32(t.h.Rank, n, first, count, dist, lo, hi) {
			over.Store(true)
		}
	})
	return !over.Load(), nil
}

// sweep settles every vertex from the top rank down: a vertex's distance
// is the best of its seed and, over its Down arcs x -> r, the distance of
// x (already final, x > r) plus the weight (the key, in a hierarchy
// WithMetricKeys made). It then drops the seeds. With more than one
// worker it settles a level (Levels) at a time, each level's vertices
// split among them: no arc joins two vertices of a level, so they read
// only final distances, and the result is the serial sweep's. O(N +
// arcs) for lanes sources.
func (h *Hierarchy) sweep(p lanesState, workers int) {
	var keys []int64
	if h.keys != nil {
		keys = h.keys.down
	}
	p.sortSeeds()
	if workers <= 1 || h.N < 2*parallelSweepChunk {
		sweepAll(p, &h.Down, keys)
		return
	}
	levels := h.Levels()
	var unfit atomic.Bool
	for l := len(levels) - 2; l >= 0; l-- {
		lo, hi := int(levels[l]), int(levels[l+1])
		forChunks(hi-lo, workers, parallelSweepChunk, func(_, a, b int) {
			if p.sweepRange(&h.Down, keys, lo+a, lo+b) {
				unfit.Store(true)
			}
		})
	}
	p.finish(unfit.Load())
}

// gatherChunk is the vertices a goroutine copying a sweep's rows takes
// at once.
const gatherChunk = 1 << 16

// parallelSweepChunk is the vertices a worker of a parallel sweep takes
// at once: a level smaller than two of them is settled by one.
const parallelSweepChunk = 4096

// TreeLanes is the number of sources one PHAST sweep serves: Trees is at
// its most efficient on a multiple of it.
const TreeLanes = lanes
