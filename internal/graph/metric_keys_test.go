package graph

import "testing"

// TestMetricBound checks the bound a graph's arcs give (the largest
// metric per weight unit over arcs of positive weight, and the metric of
// the arcs of weight zero), the arcs it refuses, and that Check refuses a
// key sum whose metric could have carried into the weight.
func TestMetricBound(t *testing.T) {
	b, err := MetricBound([]int32{10, 4, 0, 0}, []int32{5, 6, 7, 1})
	if err != nil || b.Ratio != 1.5 || b.ZeroWeight != 8 {
		t.Fatalf("bound %+v (%v), want ratio 1.5 and 8 on zero-weight arcs", b, err)
	}
	keys, kb, err := MetricKeys([]int32{10, 4}, []int32{5, 6})
	if err != nil || kb.Ratio != 1.5 || len(keys) != 2 || keys[1] != Key(4, 6) {
		t.Fatalf("keys %v, bound %+v (%v)", keys, kb, err)
	}
	for _, bad := range []struct{ w, m int32 }{{-1, 0}, {0, -1}, {MaxKeyedWeight + 1, 0}} {
		if _, err := MetricBound([]int32{bad.w}, []int32{bad.m}); err == nil {
			t.Errorf("arc (%d, %d) accepted", bad.w, bad.m)
		}
	}
	if _, err := MetricBound([]int32{1, 2}, []int32{1}); err == nil {
		t.Error("arrays of different lengths accepted")
	}
	if w, m := SplitKey(Key(123, 456)); w != 123 || m != 456 {
		t.Errorf("SplitKey(Key(123, 456)) = (%d, %d)", w, m)
	}
	// Ratio 8: a weight of 2^29 may carry 2^32 of metric, past what a key
	// holds; 2^20 may not.
	b = KeyBound{Ratio: 8}
	if err := b.Check(Key(1<<20, 7)); err != nil {
		t.Errorf("a small sum refused: %v", err)
	}
	if err := b.Check(Key(1<<29, 0)); err == nil {
		t.Error("a sum whose metric may have carried accepted")
	}
	if err := (KeyBound{}).Check(-5); err == nil {
		t.Error("a negative key accepted")
	}
	if err := (KeyBound{}).Check(Key(MaxKeyedDistance+1, 0)); err == nil {
		t.Error("a weight past MaxKeyedDistance accepted")
	}
}
