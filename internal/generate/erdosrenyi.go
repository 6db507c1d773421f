package generate

import (
	"fmt"
	"math"

	"github.com/pathflow/pathflow/internal/graph"
)

// ErdosRenyi returns a directed G(n, p) graph: each of the n(n-1) ordered
// pairs u != v is an arc independently with probability p, with a weight
// drawn uniformly from [lo, hi]. There are no self-loops and no parallel
// arcs; arcs come sorted by source, then target.
//
// Geometric skipping (Batagelj and Brandes, 2005) jumps straight from one
// chosen pair to the next, so the cost is O(n + m) expected, not O(n^2).
func ErdosRenyi(n int32, p float64, lo, hi int32, seed uint64) (*graph.EdgeList, error) {
	if err := checkVertices(n); err != nil {
		return nil, err
	}
	if !(p >= 0 && p <= 1) { // also rejects NaN
		return nil, fmt.Errorf("generate: probability %v outside [0, 1]", p)
	}
	if err := checkWeights(lo, hi); err != nil {
		return nil, err
	}
	perRow := int64(n) - 1 // candidate targets of one source
	pairs := int64(n) * perRow
	expected := p * float64(pairs)
	e := graph.NewEdgeList(n, int(min(expected+4*math.Sqrt(expected)+16, float64(pairs))))
	if pairs <= 0 || p == 0 {
		return e, nil
	}
	r := stream(seed, 0)
	w := newWeightDrawer(lo, hi)
	if p == 1 {
		for u := int32(0); u < n; u++ {
			for v := int32(0); v < n; v++ {
				if v != u {
					e.Add(u, v, w.draw(r))
				}
			}
		}
		return e, nil
	}
	logQ := math.Log1p(-p)
	// (u, col) walks the pairs row by row; col indexes u's candidate
	// targets 0..n-2, which skip u itself.
	u, col := int64(0), int64(-1)
	for {
		skip := math.Floor(math.Log1p(-r.Float64()) / logQ)
		if skip >= float64(pairs) { // past the last pair, and safe to convert
			break
		}
		col += int64(skip) + 1
		if col >= perRow {
			u += col / perRow
			col %= perRow
		}
		if u >= int64(n) {
			break
		}
		v := col
		if v >= u {
			v++
		}
		e.Add(int32(u), int32(v), w.draw(r))
	}
	return e, nil
}
