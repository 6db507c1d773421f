package formats

import (
	"fmt"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
)

// Simplification says what Simplify does with self-loops and parallel arcs.
type Simplification int

const (
	// KeepAll keeps every arc as read, in input order: the graph the file
	// describes, multigraph or not.
	KeepAll Simplification = iota
	// Reduce leaves one arc per (source, target) pair, with the smallest
	// weight among the parallel arcs: the only one a shortest path can use.
	// Self-loops are dropped when non-negative, since they never lie on a
	// shortest path; a negative self-loop is kept (once, with the smallest
	// weight) because it is a negative cycle that the algorithms must see
	// and report. Arcs come out sorted by source, then target.
	Reduce
)

// String returns the name used in configuration: "keep" or "reduce".
func (s Simplification) String() string {
	switch s {
	case KeepAll:
		return "keep"
	case Reduce:
		return "reduce"
	}
	return fmt.Sprintf("Simplification(%d)", int(s))
}

// ParseSimplification is the inverse of Simplification.String.
func ParseSimplification(s string) (Simplification, error) {
	for _, m := range []Simplification{KeepAll, Reduce} {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("formats: unknown simplification %q: want keep or reduce", s)
}

// SimplifyStats counts what Simplify removed.
type SimplifyStats struct {
	// SelfLoops is the number of self-loop arcs removed: all non-negative
	// ones, and the extra copies of negative ones.
	SelfLoops int
	// Parallel is the number of arcs removed because a parallel arc with a
	// smaller or equal weight was kept.
	Parallel int
}

// Simplify applies mode to e. KeepAll returns e itself. Reduce returns a
// new edge list and leaves e unchanged. An invalid e (see
// graph.EdgeList.Validate) is an error.
//
// Reduce takes O(N + M log d) time for largest out-degree d and about
// 8 bytes per vertex plus 20 bytes per arc of extra memory.
func Simplify(e *graph.EdgeList, mode Simplification) (*graph.EdgeList, SimplifyStats, error) {
	if err := e.Validate(); err != nil {
		return nil, SimplifyStats{}, fmt.Errorf("formats: simplify: %w", err)
	}
	switch mode {
	case KeepAll:
		return e, SimplifyStats{}, nil
	case Reduce:
	default:
		return nil, SimplifyStats{}, fmt.Errorf("formats: simplify: unknown mode %v", mode)
	}
	csr := graph.BuildCSR(e)
	out := graph.NewEdgeList(e.N, e.M())
	var stats SimplifyStats
	var keys []uint64
	for u := int32(0); u < e.N; u++ {
		lo, hi := csr.Offsets[u], csr.Offsets[u+1]
		keys = keys[:0]
		for i := lo; i < hi; i++ {
			keys = append(keys, arcKey(csr.Targets[i], csr.Weights[i]))
		}
		// Sorted by target, then weight: the first arc of each target run
		// has the smallest weight.
		slices.Sort(keys)
		for i := 0; i < len(keys); {
			v, w := keyArc(keys[i])
			j := i + 1
			for j < len(keys) && keys[j]>>32 == keys[i]>>32 {
				j++
			}
			if v == u {
				if w < 0 {
					out.Add(u, v, w)
					stats.SelfLoops += j - i - 1
				} else {
					stats.SelfLoops += j - i
				}
			} else {
				out.Add(u, v, w)
				stats.Parallel += j - i - 1
			}
			i = j
		}
	}
	if out.M() < e.M()/2 {
		// Free the unused capacity of a heavily reduced graph.
		out.Src, out.Dst, out.Weight = slices.Clone(out.Src), slices.Clone(out.Dst), slices.Clone(out.Weight)
	}
	return out, stats, nil
}

// arcKey packs a target and a weight into one integer ordered by target,
// then by weight (the sign bit flipped so negative weights sort first).
func arcKey(v, w int32) uint64 {
	return uint64(uint32(v))<<32 | uint64(uint32(w)^(1<<31))
}

func keyArc(k uint64) (v, w int32) {
	return int32(k >> 32), int32(uint32(k) ^ (1 << 31))
}
