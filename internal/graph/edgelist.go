package graph

import (
	"errors"
	"fmt"
)

// EdgeList is a directed weighted graph stored as three parallel arc arrays.
// Arc i goes from Src[i] to Dst[i] with weight Weight[i]. Undirected inputs
// are stored with both arcs.
type EdgeList struct {
	// N is the number of vertices; ids are 0..N-1.
	N int32
	// Src, Dst and Weight have one entry per arc.
	Src, Dst, Weight []int32
	// Metric, when not nil, is a second value per arc beside its weight,
	// in the same order (see CSR.Metric).
	Metric []int32
	// recordedRange is the weight range RecordWeightRange attached, or
	// nil.
	recordedRange *recordedRange
}

// NewEdgeList returns an empty edge list over n vertices with room for
// capacity arcs.
func NewEdgeList(n int32, capacity int) *EdgeList {
	return &EdgeList{
		N:      n,
		Src:    make([]int32, 0, capacity),
		Dst:    make([]int32, 0, capacity),
		Weight: make([]int32, 0, capacity),
	}
}

// M returns the number of arcs.
func (e *EdgeList) M() int { return len(e.Src) }

// Add appends the arc u -> v with weight w.
func (e *EdgeList) Add(u, v, w int32) {
	e.Src = append(e.Src, u)
	e.Dst = append(e.Dst, v)
	e.Weight = append(e.Weight, w)
}

// Validate reports the first structural problem: a negative vertex count,
// arrays of different lengths or an endpoint outside 0..N-1.
func (e *EdgeList) Validate() error {
	if e.N < 0 {
		return fmt.Errorf("graph: negative vertex count %d", e.N)
	}
	if len(e.Dst) != len(e.Src) || len(e.Weight) != len(e.Src) || (e.Metric != nil && len(e.Metric) != len(e.Src)) {
		return errors.New("graph: arc arrays differ in length")
	}
	for i := range e.Src {
		if u, v := e.Src[i], e.Dst[i]; u < 0 || u >= e.N || v < 0 || v >= e.N {
			return fmt.Errorf("graph: arc %d (%d -> %d) has an endpoint outside 0..%d", i, u, v, e.N-1)
		}
	}
	return nil
}

// WeightRange returns the smallest and largest arc weight; both are 0 when
// there are no arcs. O(1) for a recorded range (RecordWeightRange), else
// O(m), on every core for large graphs.
func (e *EdgeList) WeightRange() (lo, hi int32) {
	if lo, hi, ok := e.recordedWeightRange(); ok {
		return lo, hi
	}
	return weightRange(e.Weight)
}

// HasNegativeWeight reports whether any arc weight is below zero.
func (e *EdgeList) HasNegativeWeight() bool {
	lo, _ := e.WeightRange()
	return lo < 0
}
