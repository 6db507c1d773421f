package graph

import (
	"slices"
	"testing"
)

// TestBall: the ball is the first vertices a breadth-first search reaches,
// numbered in that order, with exactly their arcs among themselves; a
// search that runs out goes on from the next unreached vertex by id.
func TestBall(t *testing.T) {
	// 0 -> 1 -> 2 -> 0, 1 -> 3; 4 -> 5 apart; 3 -> 4 is not there.
	g := BuildCSR(&EdgeList{N: 6, Src: []int32{0, 1, 2, 1, 4}, Dst: []int32{1, 2, 0, 3, 5}, Weight: []int32{10, 20, 30, 40, 50}})
	b := g.Ball(1, 3) // reaches 1, then 2 and 3
	if b.N != 3 || !slices.Equal(b.Offsets, []int64{0, 2, 2, 2}) || !slices.Equal(b.Targets, []int32{1, 2}) || !slices.Equal(b.Weights, []int32{20, 40}) {
		t.Errorf("ball of 3 from 1: %+v", b)
	}
	b = g.Ball(3, 6) // 3 has no out-arcs: 4 (and 5), then 0 (1, 2)
	if b.N != 6 || b.M() != 5 {
		t.Fatalf("ball of 6 from 3: %d vertices, %d arcs", b.N, b.M())
	}
	// Numbering 3, 4, 5, 0, 1, 2: the arc 4 -> 5 is 1 -> 2, 0 -> 1 is 3 -> 4.
	if !slices.Equal(b.Targets[b.Offsets[1]:b.Offsets[2]], []int32{2}) || !slices.Equal(b.Targets[b.Offsets[3]:b.Offsets[4]], []int32{4}) {
		t.Errorf("ball of 6 from 3 renumbered wrongly: %+v", b)
	}
	if b := g.Ball(0, 0); b.N != 0 || b.M() != 0 {
		t.Errorf("an empty ball: %+v", b)
	}
}
