package generate

import (
	"fmt"
	"math"
	"runtime"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/parallel"
)

// Grid returns a road-like side x side grid: vertex r*side + c sits at row r
// and column c and has an arc to each of its 4 neighbours, every direction
// with its own weight drawn from [lo, hi]. It has side^2 vertices and
// 4*side*(side-1) arcs (512 x 512: 262,144 vertices, 1,046,528 arcs).
//
// Arcs come grouped by source in vertex order; each vertex lists its right,
// left, down and up neighbours, skipping those off the grid. Rows are built
// in parallel, each from its own random stream, in O(side^2) time.
func Grid(side int32, lo, hi int32, seed uint64) (*graph.EdgeList, error) {
	if side < 0 {
		return nil, fmt.Errorf("generate: negative grid side %d", side)
	}
	if int64(side)*int64(side) > math.MaxInt32 {
		return nil, fmt.Errorf("generate: grid side %d gives more than %d vertices", side, math.MaxInt32)
	}
	if err := checkWeights(lo, hi); err != nil {
		return nil, err
	}
	s := int(side)
	m := 0
	if s > 1 {
		m = 4 * s * (s - 1)
	}
	e := &graph.EdgeList{
		N:      side * side,
		Src:    make([]int32, m),
		Dst:    make([]int32, m),
		Weight: make([]int32, m),
	}
	if m == 0 {
		return e, nil
	}
	// Row r starts after the arcs of rows 0..r-1: 2(s-1) horizontal arcs
	// per row, s downward arcs per row above the last, s upward arcs per
	// row below the first.
	rowStart := func(r int) int {
		start := r * (2*(s-1) + s) // horizontal and downward arcs of earlier rows
		if r > 0 {
			start += (r - 1) * s // upward arcs of rows 1..r-1
		}
		return start
	}
	w := newWeightDrawer(lo, hi)
	parallel.For(s, runtime.GOMAXPROCS(0), func(r int) {
		rng := stream(seed, uint64(r))
		at := rowStart(r)
		add := func(u, v int) {
			e.Src[at], e.Dst[at], e.Weight[at] = int32(u), int32(v), w.draw(rng)
			at++
		}
		for c := range s {
			u := r*s + c
			if c+1 < s {
				add(u, u+1)
			}
			if c > 0 {
				add(u, u-1)
			}
			if r+1 < s {
				add(u, u+s)
			}
			if r > 0 {
				add(u, u-s)
			}
		}
	})
	return e, nil
}
