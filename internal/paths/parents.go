package paths

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/parallel"
)

// ParentFinder derives shortest-path trees by the parent rule from exact
// distances alone: a contraction hierarchy's PHAST rows, or a row whose
// path is read back (package routes). It holds one goroutine's scratch
// space.
type ParentFinder struct {
	// g is the graph the distances are of; in its reverse, nil for a
	// finder on out-arcs (NewParentFinderOnOutArcs).
	g, in *graph.CSR
	// repair is the scratch space of Repair, made on first use; nil for a
	// loop-free graph.
	repair *TreeRepair
	// loopFree says that the arcs of weight 0 (of key 0, for rows of key
	// sums) close no ring between distinct vertices (MayLoop is false):
	// parents then close no loop and a row needs no check, which spares
	// an O(n) pass a row and 8 bytes a vertex for every goroutine.
	loopFree bool
	// keys, for rows of key sums (NewKeyedParentFinder), are the arcs'
	// keys (graph.Key) in the order of g (out) and of in.
	keys *arcKeys
	// workers is how many goroutines find a row's parents (Spread).
	workers int
}

// arcKeys are a graph's metric keys in the order of its out-arcs and of
// its in-arcs.
type arcKeys struct{ out, in []int64 }

// NewParentFinder returns a ParentFinder for g, the graph the distances
// are of. O(n + m) for the reverse graph.
func NewParentFinder(g *graph.CSR) *ParentFinder {
	return &ParentFinder{g: g, in: g.Reverse(), loopFree: !MayLoop(g, false)}
}

// NewKeyedParentFinder returns a ParentFinder for rows of key sums over
// g's metric keys (graph.MetricKeys; g.Metric must be set): a tight arc is
// one whose key closes the sums, so the parents describe the path
// shortest by (weight, metric). O(n + m).
func NewKeyedParentFinder(g *graph.CSR) (*ParentFinder, error) {
	f := NewParentFinder(g)
	out, _, err := graph.MetricKeys(g.Weights, g.Metric)
	if err != nil {
		return nil, err
	}
	in, _, err := graph.MetricKeys(f.in.Weights, f.in.Metric)
	if err != nil {
		return nil, err
	}
	f.keys = &arcKeys{out: out, in: in}
	f.loopFree = !MayLoop(g, true)
	return f, nil
}

// Fork returns a ParentFinder for another goroutine that shares f's
// reverse graph (O(n + m) memory, made once) and its Spread, and has
// scratch space of its own. O(n).
func (f *ParentFinder) Fork() *ParentFinder {
	return &ParentFinder{g: f.g, in: f.in, keys: f.keys, loopFree: f.loopFree, workers: f.workers}
}

// Spread makes each row's parents be found on up to workers goroutines,
// each over a range of the vertices (a vertex's parent reads only the
// row's distances), for a caller that has fewer rows in hand than cores:
// a run that bounds its memory to a few whole rows of a large graph. The
// repair of a row whose parents loop, where it is needed, stays on one.
func (f *ParentFinder) Spread(workers int) { f.workers = workers }

// parentChunk is the fewest vertices a goroutine of a spread row takes.
const parentChunk = 1 << 16

// repairer returns f's repair scratch space, made on first use. O(n) then.
func (f *ParentFinder) repairer() *TreeRepair {
	if f.repair == nil {
		f.repair = NewTreeRepair(int(f.g.N))
	}
	return f.repair
}

// Parents fills parent[v] with the smallest u such that u -> v is an arc
// and dist[u] + w(u, v) == dist[v] (a tight arc), NoParent for the
// source and unreachable vertices. Where arcs of weight zero close a
// cycle of such choices, the row is rebuilt with paths.Repair, as every
// backend does. dist must be exact distances from source, with
// Unreachable; dist and parent have one entry per vertex. O(n + m).
func (f *ParentFinder) Parents(source int32, dist []int64, parent []int32) error {
	return parentsOf(f, source, dist, Unreachable, parent)
}

// Parents32 is Parents for a row of int32 distances, graph.Inf32 and above
// for no path: a row kept at 4 bytes a vertex where its distances fit (a
// 24M-vertex row is 96 MB less than at 8). The parents are those of the
// same row in int64. O(n + m).
func (f *ParentFinder) Parents32(source int32, dist []int32, parent []int32) error {
	return parentsOf(f, source, dist, graph.Inf32, parent)
}

// parentsOf is Parents on a row of either width, inf and above meaning no
// path.
func parentsOf[D Distance](f *ParentFinder, source int32, dist []D, inf D, parent []int32) error {
	if n := int(f.g.N); len(dist) != n || len(parent) != n || source < 0 || int(source) >= n {
		return fmt.Errorf("paths: parents of source %d need %d distances and parents, got %d and %d", source, n, len(dist), len(parent))
	}
	if f.keys != nil {
		if f.in == nil {
			spreadOffers(f.workers, f.g, f.keys.out, source, dist, inf, parent)
		} else {
			spreadTight(f.workers, f.in, f.keys.in, source, dist, inf, parent)
		}
		if !f.loopFree {
			repairOn(f.repairer(), f.g, f.keys.out, source, dist, inf, parent)
		}
		return nil
	}
	if f.in == nil {
		spreadOffers(f.workers, f.g, f.g.Weights, source, dist, inf, parent)
	} else {
		spreadTight(f.workers, f.in, f.in.Weights, source, dist, inf, parent)
	}
	if !f.loopFree {
		Repair(f.repairer(), f.g, source, dist, inf, parent)
	}
	return nil
}

// spreadTight applies the parent rule to every vertex of the row, over
// ranges of the vertices on up to workers goroutines.
func spreadTight[D Distance, W ~int32 | ~int64](workers int, in *graph.CSR, weights []W, source int32, dist []D, inf D, parent []int32) {
	parallel.Chunks(len(parent), max(1, workers), parentChunk, func(_, lo, hi int) {
		tightParents(in, weights, source, dist, inf, parent, lo, hi)
	})
}

// tightParents is the parent rule over the in-arcs of in with weights (the
// graph's, or its keys), for vertices lo..hi-1, dist at inf and above
// meaning no path; sums in int64 at either width. O(hi - lo + their
// in-arcs).
func tightParents[D Distance, W ~int32 | ~int64](in *graph.CSR, weights []W, source int32, dist []D, inf D, parent []int32, lo, hi int) {
	for v := lo; v < hi; v++ {
		parent[v] = NoParent
		dv := dist[v]
		if int32(v) == source || dv >= inf {
			continue
		}
		for a := in.Offsets[v]; a < in.Offsets[v+1]; a++ {
			u := in.Targets[a]
			if du := dist[u]; u != int32(v) && du < inf && int64(du)+int64(weights[a]) == int64(dv) {
				parent[v] = u
				break
			}
		}
	}
}
