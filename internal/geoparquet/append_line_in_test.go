package geoparquet

import (
	"encoding/binary"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/tables"
)

// TestAppendLineInHandsOverTheBatch checks that AppendLineIn's fill sees
// the batch's earlier lines where their rows put them, and that Batch
// numbers the batches: each row's line is the previous row's, copied from
// the batch, and one more point, unless the row starts a batch (batches
// of 3 rows).
func TestAppendLineInHandsOverTheBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg, err := tables.NewConfig([]tables.Option{tables.WithBatchRows(3), tables.WithAllocator(mem)})
	if err != nil {
		t.Fatal(err)
	}
	const rows = 7
	path := filepath.Join(t.TempDir(), "routes.parquet")
	var batches []int64
	_, err = WriteFile(path, testLeading, nil, tables.ParquetEncoding{}, cfg, func(out *Rows) error {
		prevStart, prevEnd, prevBatch := 0, 0, int64(-1)
		for i := range rows {
			out.Leading(0).(*array.Int32Builder).Append(int32(i))
			out.Leading(1).(*array.Int32Builder).Append(0)
			out.Leading(2).AppendNull()
			batch := out.Batch()
			batches = append(batches, batch)
			points := (prevEnd-prevStart)/pointBytes + 1
			if batch != prevBatch {
				points = 1
			}
			err := out.AppendLineIn(points, func(wkb []byte, at int) (Box, error) {
				if len(wkb) != at+points*pointBytes {
					t.Fatalf("row %d: %d bytes for %d points at %d", i, len(wkb), points, at)
				}
				pos := at
				if points > 1 {
					pos += copy(wkb[pos:], wkb[prevStart:prevEnd])
				}
				binary.LittleEndian.PutUint64(wkb[pos:], math.Float64bits(-75-float64(i)/100))
				binary.LittleEndian.PutUint64(wkb[pos+8:], math.Float64bits(39))
				prevStart, prevEnd = at, pos+pointBytes
				return Box{XMin: -75 - float64(i)/100, YMin: 39, XMax: -75, YMax: 39}, nil
			})
			if err != nil {
				return err
			}
			prevBatch = batch
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{0, 0, 0, 1, 1, 1, 2}; !slices.Equal(batches, want) {
		t.Errorf("batches %v, want %v", batches, want)
	}
	got, _ := readRoutes(t, path)
	for i, r := range got {
		first := i / 3 * 3
		var want []float64
		for k := first; k <= i; k++ {
			want = append(want, -75-float64(k)/100)
		}
		if len(want) == 1 {
			want = append(want, want[0])
		}
		if !slices.Equal(r.lon, want) {
			t.Errorf("row %d: longitudes %v, want %v", i, r.lon, want)
		}
	}
}
