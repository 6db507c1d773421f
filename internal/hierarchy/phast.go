package hierarchy

import (
	"fmt"

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
	pool := h.pool()
	forChunks(batches, workers, 1, func(_, lo, hi int) {
		s := pool.get()
		defer pool.put(s)
		p := pool.getLanes()
		defer pool.putLanes(p)
		for b := lo; b < hi; b++ {
			batch := sources[b*lanes : min(len(sources), (b+1)*lanes)]
			for k, src := range batch {
				s.run(&h.Up, &h.Down, h.Rank[src], false)
				for _, v := range s.settled {
					p.seed(v, k, s.dist[v])
				}
			}
			h.sweep(p)
			// One pass over the original ids writes every row of the batch.
			base := dist[b*lanes*n:]
			for v, r := range h.Rank {
				x := &p.d[r]
				for k := range batch {
					if x[k] < infinity {
						base[k*n+v] = x[k]
					} else {
						base[k*n+v] = paths.Unreachable
					}
				}
			}
		}
	})
	return nil
}

// phastLanes is one worker's PHAST state: the distances of the batch's
// sources to every vertex, and the upward-search values that seed the
// sweep, kept apart so that the sweep overwrites every vertex and nothing
// needs clearing between batches but the seeds.
type phastLanes struct {
	d      [][lanes]int64
	seedAt []int32 // index in seeds, or -1
	seeds  [][lanes]int64
	seeded []int32 // the vertices with a seed
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
// x (already final, x > r) plus the weight. It then drops the seeds.
// O(N + arcs) for lanes sources.
func (h *Hierarchy) sweep(p *phastLanes) {
	off, tails, weights := h.Down.Offsets, h.Down.Targets, h.Down.Weights
	d := p.d
	for r := len(d) - 1; r >= 0; r-- {
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
	for _, r := range p.seeded {
		p.seedAt[r] = -1
	}
	p.seeds, p.seeded = p.seeds[:0], p.seeded[:0]
}

// TreeLanes is the number of sources one PHAST sweep serves: Trees is at
// its most efficient on a multiple of it.
const TreeLanes = lanes
