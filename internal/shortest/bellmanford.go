package shortest

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// BellmanFord computes shortest paths from source for weights of any sign
// with the queue-based Bellman-Ford-Moore algorithm: a FIFO queue of
// vertices whose distance dropped, each queued at most once at a time.
// Parents are filled when withParents.
//
// A negative cycle reachable from source gives a *NegativeCycleError with
// the cycle. Detection is amortized (Cherkassky and Goldberg's "walk to
// root" idea): after every n successful relaxations the parent graph is
// checked for a cycle in O(n), and any such cycle is negative, so a cycle
// is reported soon after it forms instead of after n full passes.
//
// O(n m) time in the worst case, much less on most graphs; O(n) extra
// space.
func BellmanFord(ctx context.Context, g *graph.CSR, source int32, withParents bool) (*paths.Tree, error) {
	if err := ValidateCSR(g); err != nil {
		return nil, err
	}
	if err := CheckBellmanFordInput(g); err != nil {
		return nil, err
	}
	if err := ValidateSource(g.N, source); err != nil {
		return nil, err
	}
	t := paths.NewTree(g.N, source, true)
	t.Dist[source] = 0
	if err := newBellmanFordSearch(g.N).run(ctx, g, t.Dist, t.Parent, []int32{source}, math.MaxInt64); err != nil {
		return nil, err
	}
	if !withParents {
		t.Parent = nil
	}
	return t, nil
}

// CheckBellmanFordInput checks the distance range of a structurally valid
// g. O(m).
func CheckBellmanFordInput(g *graph.CSR) error {
	lo, hi := g.WeightRange()
	return checkDistanceBound(g.N, lo, hi, maxExactBound)
}

// BellmanFordSearches returns the row searches of a checked graph, each
// worker's with its own queue, and its own parent array for rows without
// parents (the cycle check needs them); limit is as for
// bellmanFordSearch.run.
func BellmanFordSearches(g *graph.CSR, limit int64) func() RowSearch {
	return bellmanFordSearchesOn(g, g.Weights, limit)
}

// bellmanFordSearchesOn is BellmanFordSearches over weights, g's or
// another value per arc in g's order (metric keys).
func bellmanFordSearchesOn[W arcWeight](g *graph.CSR, weights []W, limit int64) func() RowSearch {
	return func() RowSearch {
		search := newBellmanFordSearch(g.N)
		var scratch []int32
		start := make([]int32, 1)
		return func(ctx context.Context, source int32, dist []int64, parent []int32) error {
			if parent == nil {
				if scratch == nil {
					scratch = make([]int32, g.N)
				}
				parent = scratch
				for v := range parent {
					parent[v] = paths.NoParent
				}
			}
			dist[source], start[0] = 0, source
			return relaxAll(ctx, search, g, weights, dist, parent, start, limit)
		}
	}
}

// bellmanFordSearch holds the queue and the scratch space of the cycle
// check.
type bellmanFordSearch struct {
	queue   []int32 // circular, never more than n entries
	inQueue []bool
	repair  *paths.TreeRepair
}

func newBellmanFordSearch(n int32) *bellmanFordSearch {
	return &bellmanFordSearch{
		queue:   make([]int32, n),
		inQueue: make([]bool, n),
		repair:  paths.NewTreeRepair(int(n)),
	}
}

// run relaxes arcs from the start vertices, whose distances the caller has
// set, until no distance drops. dist holds paths.Unreachable and parent
// paths.NoParent for every other vertex; parent is required (the cycle
// check walks it). Reachable vertices only ever hold finite distances.
//
// Paths longer than limit are dropped (math.MaxInt64 keeps all). Only
// without negative weights is that exact for the vertices within limit,
// whose shortest paths then stay within it all the way; the others stay
// unreachable.
func (s *bellmanFordSearch) run(ctx context.Context, g *graph.CSR, dist []int64, parent []int32, starts []int32, limit int64) error {
	return relaxAll(ctx, s, g, g.Weights, dist, parent, starts, limit)
}

// relaxAll is bellmanFordSearch.run over weights, g's or another value per
// arc in g's order (metric keys).
func relaxAll[W arcWeight](ctx context.Context, s *bellmanFordSearch, g *graph.CSR, weights []W, dist []int64, parent []int32, starts []int32, limit int64) error {
	n := len(s.queue)
	clear(s.inQueue) // an earlier run may have stopped early
	head, size := 0, 0
	for _, v := range starts {
		s.queue[size] = v
		s.inQueue[v] = true
		size++
	}
	relaxed, pops := 0, 0
	for size > 0 {
		u := s.queue[head]
		head++
		if head == n {
			head = 0
		}
		size--
		s.inQueue[u] = false
		if pops%cancelCheckInterval == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("cpu: bellman-ford: %w", err)
			}
		}
		pops++
		du := dist[u]
		lo, hi := g.Offsets[u], g.Offsets[u+1]
		ts, ws := g.Targets[lo:hi], weights[lo:hi]
		ws = ws[:len(ts)]
		for i, v := range ts {
			nd := du + int64(ws[i])
			if nd >= dist[v] || nd > limit {
				continue
			}
			dist[v] = nd
			parent[v] = u
			if !s.inQueue[v] {
				s.inQueue[v] = true
				tail := head + size
				if tail >= n {
					tail -= n
				}
				s.queue[tail] = v
				size++
			}
			if relaxed++; relaxed == n {
				relaxed = 0
				if c := s.parentCycle(parent); c != nil {
					return c
				}
			}
		}
	}
	return nil
}

// parentCycle returns the cycle of the parent graph (arcs parent[v] -> v)
// if it has one, else nil. O(n).
func (s *bellmanFordSearch) parentCycle(parent []int32) *NegativeCycleError {
	if v := s.repair.ParentCycle(parent); v >= 0 {
		return cycleThrough(parent, v)
	}
	return nil
}

// cycleThrough lists the parent-graph cycle through x in arc order,
// starting at x.
func cycleThrough(parent []int32, x int32) *NegativeCycleError {
	// Walking parents runs against the arcs: x, parent[x], ...
	backwards := []int32{x}
	for u := parent[x]; u != x; u = parent[u] {
		backwards = append(backwards, u)
	}
	// Reversed, the walk follows the arcs and ends at parent[x]; x comes
	// first, and parent[x] -> x closes the cycle.
	cycle := append([]int32{x}, backwards[1:]...)
	slices.Reverse(cycle[1:])
	return &NegativeCycleError{Backend: backend.CPU, Vertex: x, Cycle: cycle}
}
