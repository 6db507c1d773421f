package shortest

import (
	"context"
	"fmt"
	"math"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// arcWeight is the weight type a search reads: the input's int32, or int64
// for arcs reweighted by Johnson's potentials.
type arcWeight interface{ ~int32 | ~int64 }

// cancelCheckInterval is how many heap pops pass between two looks at the
// context: rare enough to cost nothing, frequent enough (well under a
// millisecond) to stop a long search promptly.
const cancelCheckInterval = 1 << 16

// Dijkstra computes shortest paths from source with Dijkstra's algorithm
// and an indexed 4-ary heap, in O((n + m) log n) time and O(n) extra space.
// Parents are filled when withParents. The weights must be non-negative:
// a negative arc gives an error wrapping ErrNegativeWeight that points to
// BellmanFord.
func Dijkstra(ctx context.Context, g *graph.CSR, source int32, withParents bool) (*paths.Tree, error) {
	if err := ValidateCSR(g); err != nil {
		return nil, err
	}
	if err := CheckDijkstraInput(g); err != nil {
		return nil, err
	}
	if err := ValidateSource(g.N, source); err != nil {
		return nil, err
	}
	return newDijkstraSearch(g.N, positiveWeights(g)).tree(ctx, g, source, withParents)
}

// CheckDijkstraInput checks a structurally valid g once for any number of
// searches: the sign of its weights and the range of its distances. O(m).
func CheckDijkstraInput(g *graph.CSR) error {
	lo, hi := g.WeightRange()
	if lo < 0 {
		return negativeArcError(g, backend.AlgorithmDijkstra, backend.AlgorithmBellmanFord)
	}
	return checkDistanceBound(g.N, lo, hi, maxExactBound)
}

// dijkstraSearch is one worker's reusable search state: the heap and its
// position index, sized for the graph once and clean again after every
// complete search.
type dijkstraSearch struct {
	heap *indexedHeap
	// smallestTight makes a tie (another arc as short into a vertex)
	// keep the in-neighbour of smaller id, so that each parent is the
	// tight in-neighbour of smallest id: the parent the GPU backend
	// gives (tight_parent, kernels/sssp_batch_state.cuh), and so the
	// same data files from either backend. It is set only when every
	// weight is positive: then a vertex's tight in-neighbours all have
	// smaller distances and leave the heap before it, so the rule sees
	// them all even in a search that stops early, and the parents can
	// close no loop. Over zero weights the first arc to reach a vertex
	// stays its parent, which always gives a tree.
	smallestTight bool
}

// newDijkstraSearch returns the search state of a graph of n vertices;
// positive says that all its weights are above zero (see smallestTight).
func newDijkstraSearch(n int32, positive bool) *dijkstraSearch {
	return &dijkstraSearch{heap: newIndexedHeap(n), smallestTight: positive}
}

// positiveWeights reports whether every arc of g weighs more than zero.
// O(m), on every core.
func positiveWeights(g *graph.CSR) bool {
	lo, _ := g.WeightRange()
	return g.M() == 0 || lo > 0
}

// tree runs one search on a checked graph into a new tree.
func (s *dijkstraSearch) tree(ctx context.Context, g *graph.CSR, source int32, withParents bool) (*paths.Tree, error) {
	t := paths.NewTree(g.N, source, withParents)
	if err := dijkstraInto(ctx, s, g.Offsets, g.Targets, g.Weights, source, t.Dist, t.Parent, plainRow, math.MaxInt64, nil); err != nil {
		return nil, err
	}
	return t, nil
}

// DijkstraSearches returns the row searches of a checked graph, each
// worker's with its own heap; positive is positiveWeights(g), limit as for
// dijkstraInto.
func DijkstraSearches(g *graph.CSR, positive bool, limit int64) func() RowSearch {
	return dijkstraSearchesOn(g, g.Weights, positive, limit)
}

// dijkstraSearchesOn is DijkstraSearches over weights, g's or another
// value per arc in g's order (metric keys).
func dijkstraSearchesOn[W arcWeight](g *graph.CSR, weights []W, positive bool, limit int64) func() RowSearch {
	return func() RowSearch {
		search := newDijkstraSearch(g.N, positive)
		return func(ctx context.Context, source int32, dist []int64, parent []int32) error {
			return dijkstraInto(ctx, search, g.Offsets, g.Targets, weights, source, dist, parent, plainRow, limit, nil)
		}
	}
}

// rowCoding is how a search stores distances and parents in its row: a
// stored value is the distance less dist, the parent less parent. An
// output row stores them as they are (plainRow) and must be filled with
// paths.Unreachable and paths.NoParent first. A scratch row stores them
// less those (zeroRow), so that zero reads unreachable and without parent:
// a fresh row needs no O(n) fill, and its memory is touched only where a
// search writes. Distances are at most a checked bound far below
// math.MaxInt64, so the shifted values neither overflow nor change order.
type rowCoding struct {
	dist   int64
	parent int32
}

var (
	plainRow = rowCoding{}
	zeroRow  = rowCoding{dist: paths.Unreachable, parent: paths.NoParent}
)

// distance decodes a stored distance.
func (c rowCoding) distance(stored int64) int64 { return stored + c.dist }

// parentOf decodes a stored parent.
func (c rowCoding) parentOf(stored int32) int32 { return stored + c.parent }

// dijkstraInto runs Dijkstra's algorithm from source over the arcs
// (offsets, targets, weights), which must all be non-negative. dist must
// hold paths.Unreachable everywhere and parent (nil for distances only)
// paths.NoParent everywhere, as coded by coding (zero everywhere for
// zeroRow); both are filled in place, coded so. A cancelled context
// stops the search with its error. O((n + m) log n) time, no allocation
// once the heap has grown.
//
// The search stops when the next vertex to settle lies beyond limit
// (math.MaxInt64 for none): vertices settled so far, and that one, have
// their shortest distances; those still in the heap have only tentative
// ones and are reported unreachable, like the vertices never reached.
//
// With stop (nil for none) the search also ends once it has settled every
// target stop marks; the vertices still in the heap keep tentative
// distances then, and stop lists every vertex whose entries were written
// so the caller can clear them (see targetStop).
//
// A vertex leaves the heap with its final distance, and an arc into a
// settled vertex can never lower that distance (weights are non-negative),
// so "in the heap" and "tentative" are the same thing: pos[v] == notInHeap
// means v is new, and every pos entry is notInHeap again at the end.
// Stopping early changes no settled vertex's distance or parent: they
// were final when it left the heap.
func dijkstraInto[W arcWeight](ctx context.Context, s *dijkstraSearch, offsets []int64, targets []int32, weights []W, source int32, dist []int64, parent []int32, coding rowCoding, limit int64, stop *targetStop) error {
	h := s.heap
	pos := h.pos
	// Stored values are the true ones less these (rowCoding).
	db, pb := coding.dist, coding.parent
	dist[source] = 0 - db
	h.push(source, 0)
	if stop != nil {
		stop.touched = append(stop.touched, source)
	}
	for pops := 0; !h.empty(); pops++ {
		if pops%cancelCheckInterval == 0 {
			if err := ctx.Err(); err != nil {
				h.clear()
				return fmt.Errorf("cpu: dijkstra: %w", err)
			}
		}
		u, du := h.pop()
		if du > limit {
			for _, it := range h.items[rootSlot:] {
				dist[it.vertex] = paths.Unreachable - db
				if parent != nil {
					parent[it.vertex] = paths.NoParent - pb
				}
			}
			h.clear()
			return nil
		}
		if stop != nil && stop.settle(u) {
			h.clear()
			return nil
		}
		lo, hi := offsets[u], offsets[u+1]
		ts, ws := targets[lo:hi], weights[lo:hi]
		ws = ws[:len(ts)]
		su := u - pb // u as a stored parent
		for i, v := range ts {
			nd := du + int64(ws[i])
			sd := nd - db // nd as stored
			if sd >= dist[v] {
				if sd == dist[v] && s.smallestTight && parent != nil && su < parent[v] {
					parent[v] = su
				}
				continue
			}
			dist[v] = sd
			if parent != nil {
				parent[v] = su
			}
			if pos[v] == notInHeap {
				h.push(v, nd)
				if stop != nil {
					stop.touched = append(stop.touched, v)
				}
			} else {
				h.decrease(v, nd)
			}
		}
	}
	return nil
}
