package hierarchy

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/graph"
)

// NoMiddle is the middle vertex of an arc of the original graph.
const NoMiddle int32 = -1

// infinity is the distance of a vertex not reached yet. Real distances
// are below it (at most (n-1) * MaxInt32 < 2^62), and adding an arc weight
// to it does not overflow.
const infinity int64 = 1 << 62

// Hierarchy is a contraction hierarchy over dense int32 ids. Vertex ids
// inside it are ranks: id r is original vertex Order[r]. Ranks go by level
// (a vertex's level is one more than the highest level of its neighbours
// contracted before it), so arcs only climb in rank (see the package
// documentation).
type Hierarchy struct {
	// N is the number of vertices.
	N int32
	// Rank[v] is the hierarchy id of original vertex v; Order is its
	// inverse.
	Rank, Order []int32
	// Up row r lists the arcs r -> x with x > r, by increasing x.
	Up graph.CSR
	// UpMiddle[a] is the middle vertex of Up arc a, a hierarchy id, or
	// NoMiddle.
	UpMiddle []int32
	// Down row r lists the arcs x -> r with x > r, by increasing x, x
	// stored as the target.
	Down graph.CSR
	// DownMiddle[a] is the middle vertex of Down arc a, or NoMiddle.
	DownMiddle []int32
	// UpMetric and DownMetric, for a hierarchy of a graph with a metric
	// (graph.CSR.Metric), are each arc's metric: the sum over the original
	// arcs it stands for, on the path shortest by (weight, metric). nil
	// otherwise. See WithMetricKeys.
	UpMetric, DownMetric []int32
	// Metric names the metric UpMetric and DownMetric hold ("length"), as
	// the builder's caller gives it, for a stored hierarchy to say which.
	Metric string
	// GraphChecksum identifies the graph the hierarchy was built from, as
	// the caller of Build gave it.
	GraphChecksum string
	// Rounds is the number of independent sets Build contracted.
	Rounds int

	// keys, in a hierarchy WithMetricKeys made, are the arcs' keys
	// (graph.Key) that its queries read instead of the weights.
	keys *metricKeys

	searches *searchPool // scratch space for queries, made on first use
	once     sync.Once
	// levels is what Levels found, and whole what Select(nil) made, on
	// their first calls.
	levels     []int32
	levelsOnce sync.Once
	whole      *Selection
	wholeOnce  sync.Once
}

// pool returns the hierarchy's scratch space for upward searches, O(1).
func (h *Hierarchy) pool() *searchPool {
	h.once.Do(func() { h.searches = &searchPool{n: h.N} })
	return h.searches
}

// Shortcuts returns the number of arcs of the hierarchy that are not
// arcs of the original graph, counted on every core: every run with a
// stored hierarchy reports it, and at 24M vertices a single core took 0.1
// s over the 47M middles. O(arcs).
func (h *Hierarchy) Shortcuts() int {
	var count atomic.Int64
	for _, mids := range [2][]int32{h.UpMiddle, h.DownMiddle} {
		forChunks(len(mids), defaultWorkers(), 1<<18, func(_, lo, hi int) {
			c := 0
			for _, m := range mids[lo:hi] {
				if m != NoMiddle {
					c++
				}
			}
			count.Add(int64(c))
		})
	}
	return int(count.Load())
}

// layout turns the contracted graph into a Hierarchy: the out-arcs of each
// vertex at its contraction become its Up row, its in-arcs its Down row,
// renumbered by position in order, which must make every arc climb. When g
// is symmetric its in-arcs are its out-arcs, so the rows are made once and
// Down shares Up's arrays (nothing writes into a built hierarchy's
// arrays; the stored files are the same either way). Otherwise each
// direction of g is dropped once its rows are made, so the peak holds one
// direction of g beside the hierarchy. O(n + arcs log d), rows sorted on
// workers goroutines.
func layout(g *dynGraph, order []int32, workers int) *Hierarchy {
	n := len(order)
	h := &Hierarchy{N: int32(n), Rank: make([]int32, n), Order: order}
	for r, v := range order {
		h.Rank[v] = int32(r)
	}
	h.Up, h.UpMiddle, h.UpMetric = h.rows(g.out, g.metric, workers)
	if g.symmetric {
		h.Down, h.DownMiddle, h.DownMetric = h.Up, h.UpMiddle, h.UpMetric
		g.out, g.in = nil, nil
		return h
	}
	g.out = nil
	h.Down, h.DownMiddle, h.DownMetric = h.rows(g.in, g.metric, workers)
	g.in = nil
	return h
}

// rows builds one direction's CSR in hierarchy ids from per-vertex lists,
// with the arcs' metrics when withMetric, O(n + arcs log d) on workers
// goroutines.
func (h *Hierarchy) rows(lists arcLists, withMetric bool, workers int) (graph.CSR, []int32, []int32) {
	n := int(h.N)
	c := graph.CSR{N: h.N, Offsets: make([]int64, n+1)}
	for r, v := range h.Order {
		c.Offsets[r+1] = c.Offsets[r] + int64(lists[v].len())
	}
	m := c.Offsets[n]
	c.Targets = make([]int32, m)
	c.Weights = make([]int32, m)
	mids := make([]int32, m)
	var metric []int32
	if withMetric {
		metric = make([]int32, m)
	}
	forRanges(n, workers, func(_, lo, hi int) {
		var list []darc // a row's arcs whole, to sort them
		for r := lo; r < hi; r++ {
			v := h.Order[r]
			list = list[:0]
			for i := range lists[v].len() {
				list = append(list, lists[v].whole(i))
			}
			at := c.Offsets[r]
			slices.SortFunc(list, func(a, b darc) int { return cmp.Compare(h.Rank[a.to], h.Rank[b.to]) })
			for i, a := range list {
				c.Targets[at+int64(i)] = h.Rank[a.to]
				c.Weights[at+int64(i)] = a.w
				mids[at+int64(i)] = NoMiddle
				if a.mid != NoMiddle {
					mids[at+int64(i)] = h.Rank[a.mid]
				}
				if metric != nil {
					metric[at+int64(i)] = a.m
				}
			}
		}
	})
	return c, mids, metric
}
