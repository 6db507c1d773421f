package graph

import "testing"

// A recorded range answers WeightRange while the graph keeps its arrays,
// and is forgotten by a copy given other weights.
func TestRecordedFactsFollowTheArrays(t *testing.T) {
	e := &EdgeList{N: 3, Src: []int32{0, 1}, Dst: []int32{1, 2}, Weight: []int32{4, 9}}
	c := BuildCSR(e)
	if _, ok := c.Recorded(); ok {
		t.Fatal("a new CSR has recorded facts")
	}
	// A recorded range the arrays do not hold shows that it is used.
	c.Record(Recorded{MinWeight: 1, MaxWeight: 2, Valid: true})
	if lo, hi := c.WeightRange(); lo != 1 || hi != 2 {
		t.Errorf("recorded WeightRange = %d, %d, want 1, 2", lo, hi)
	}
	if r, ok := c.Recorded(); !ok || !r.Valid {
		t.Errorf("Recorded = %+v, %v", r, ok)
	}
	other := *c
	other.Weights = []int32{7, 8}
	if lo, hi := other.WeightRange(); lo != 7 || hi != 8 {
		t.Errorf("copy with other weights: WeightRange = %d, %d, want 7, 8", lo, hi)
	}
	if _, ok := other.Recorded(); ok {
		t.Error("a copy with other weights keeps the recorded facts")
	}
	e.RecordWeightRange(-1, 3)
	if lo, hi := e.WeightRange(); lo != -1 || hi != 3 {
		t.Errorf("recorded edge list WeightRange = %d, %d", lo, hi)
	}
	e.Weight = append([]int32(nil), e.Weight...)
	if lo, hi := e.WeightRange(); lo != 4 || hi != 9 {
		t.Errorf("edge list with new weights: WeightRange = %d, %d, want 4, 9", lo, hi)
	}
}
