package results

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// Both native widths read alike: the same distances, the same cells
// without a path, the same cells kept under a cutoff, the same bulk fill.
func TestDistancesReadBothWidthsAlike(t *testing.T) {
	narrow := (&Rows{Dist32: []int32{0, graph.Inf32, 7, graph.Inf32 + 5, -3}}).Distances()
	wide := (&Rows{Dist64: []int64{0, paths.Unreachable, 7, paths.Unreachable, -3}}).Distances()
	for name, d := range map[string]Distances{"int32": narrow, "int64": wide} {
		var got []int64
		for k := range d.Len() {
			if v, ok := d.At(k); ok {
				got = append(got, v)
			} else if d.Weight(k) != paths.Unreachable {
				t.Errorf("%s: cell %d without a path weighs %d", name, k, d.Weight(k))
			}
		}
		if !slices.Equal(got, []int64{0, 7, -3}) {
			t.Errorf("%s: reached %v", name, got)
		}
		var kept []int
		for j := range d.Slice(1, 5).Kept(6) {
			kept = append(kept, j)
		}
		if !slices.Equal(kept, []int{3}) {
			t.Errorf("%s: kept %v under cutoff 6 of cells 1..4, want [3]", name, kept)
		}
		if _, ok := d.Within(2, 6); ok {
			t.Errorf("%s: cell 2 (7) kept under cutoff 6", name)
		}
		dst, valid := make([]int64, 5), make([]byte, 1)
		if missing := d.Fill(dst, valid, 0, 0, 5); missing != 2 || valid[0] != 0b10101 || !slices.Equal(dst, []int64{0, 0, 7, 0, -3}) {
			t.Errorf("%s: Fill = %d missing, valid %b, %v", name, missing, valid[0], dst)
		}
		out := make([]byte, 20)
		if bad := d.PutInt32LE(out, 0, 5, graph.Inf32); bad != -1 || out[4] != byte(graph.Inf32&0xff) {
			t.Errorf("%s: PutInt32LE = %d, % x", name, bad, out)
		}
	}
}

// A block holds the columns it has values for, and a shape's check
// rejects a block whose columns differ from those asked for.
func TestColumnsAreDeclaredAndChecked(t *testing.T) {
	r := &Rows{Sources: []int32{0}, Width: 2, Dist32: []int32{0, 1}}
	if !r.Has(Distance) || r.Has(Parent) || r.Columns() != ColumnsOf(Distance) {
		t.Errorf("distances only: columns %v", r.Columns())
	}
	s := &Shape{Sources: []int32{0}, Columns: ColumnsOf(Parent), MaxDistance: NoCutoff}
	if err := s.Check(r, 2); err == nil {
		t.Error("a block without the parents asked for passed the check")
	}
	r.Parent = []int32{-1, 0}
	if err := s.Check(r, 2); err != nil || r.Columns().String() != "distance,parent" {
		t.Errorf("with parents: %v, columns %v", err, r.Columns())
	}
	if err := (&Shape{Sources: []int32{0}, MaxDistance: NoCutoff}).Check(r, 2); err == nil {
		t.Error("a block with parents not asked for passed the check")
	}
}
