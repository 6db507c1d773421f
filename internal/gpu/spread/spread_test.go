package spread

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/results"
)

func TestShiftRows(t *testing.T) {
	var got []int
	fail := errors.New("sink failed")
	sink := func(rows *results.Rows) error {
		got = append(got, rows.First)
		if rows.First < 0 {
			return fail
		}
		return nil
	}
	for _, by := range []int{0, 1, 7, 1000} {
		got = got[:0]
		shifted := ShiftRows(sink, by)
		sources := []int32{4, 5}
		for _, first := range []int{0, 3, 42} {
			rows := &results.Rows{First: first, Sources: sources, Width: 9}
			if err := shifted(rows); err != nil {
				t.Fatalf("by %d, first %d: %v", by, first, err)
			}
			if rows.Width != 9 || len(rows.Sources) != 2 || &rows.Sources[0] != &sources[0] {
				t.Fatalf("by %d: rows changed beyond First: %+v", by, rows)
			}
		}
		if want := []int{by, 3 + by, 42 + by}; !slices.Equal(got, want) {
			t.Fatalf("by %d: sink saw First %v, want %v", by, got, want)
		}
		if err := shifted(&results.Rows{First: -by - 1}); !errors.Is(err, fail) {
			t.Fatalf("by %d: error %v, want the sink's", by, err)
		}
	}
	if reflect.ValueOf(ShiftRows(sink, 0)).Pointer() != reflect.ValueOf(sink).Pointer() {
		t.Fatalf("ShiftRows(sink, 0) is not sink itself")
	}
}
