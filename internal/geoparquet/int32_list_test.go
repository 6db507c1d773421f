package geoparquet

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/tables"
)

// listLeading is a routes table with a list of int32 among its leading
// columns, as a paths table's vertices.
var listLeading = []arrow.Field{
	{Name: "source", Type: arrow.PrimitiveTypes.Int32},
	{Name: "vertices", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
}

// TestAppendInt32ListWritesWhatTheBuilderWrites: lists appended in place
// read back as they were appended, in both formats, over batches of 3 rows
// whose memory later batches fill again, with null and empty lists among
// them; and make the same Parquet file, byte for byte, as the same lists
// appended through the column's Arrow builder. (An Arrow IPC file holds
// the buffers as they are, and the builder's differ: a validity bitmap
// without nulls, room beyond the values.)
func TestAppendInt32ListWritesWhatTheBuilderWrites(t *testing.T) {
	lists := [][]int32{{0, 1, 2}, nil, {}, {7}, {3, 4, 5, 6, 8, 9, 10, 11}, {12, 13}, nil, {14, 15, 16}, {17}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {2}}
	for _, format := range []tables.Format{tables.Parquet, tables.Arrow} {
		var sums []string
		for _, inPlace := range []bool{false, true} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			cfg, err := tables.NewConfig([]tables.Option{tables.WithBatchRows(3), tables.WithAllocator(mem), tables.WithFormat(format)})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "routes"+format.Ext())
			info, err := WriteFile(path, listLeading, nil, tables.ParquetEncoding{}, cfg, func(out *Rows) error {
				for i, l := range lists {
					out.Leading(0).(*array.Int32Builder).Append(int32(i))
					if inPlace {
						if err := out.AppendInt32List(1, l); err != nil {
							return err
						}
					} else if b := out.Leading(1).(*array.ListBuilder); l == nil {
						b.AppendNull()
					} else {
						b.Append(true)
						b.ValueBuilder().(*array.Int32Builder).AppendValues(l, nil)
					}
					if err := out.AppendLine([]float64{-75, -75.5}, []float64{39, 39.25}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s, in place %v: %v", format, inPlace, err)
			}
			mem.AssertSize(t, 0)
			sums = append(sums, info.SHA256)
			if got := readLists(t, path); !slices.EqualFunc(got, lists, func(a, b []int32) bool { return (a == nil) == (b == nil) && slices.Equal(a, b) }) {
				t.Errorf("%s, in place %v: read %v, want %v", format, inPlace, got, lists)
			}
		}
		if format == tables.Parquet && sums[0] != sums[1] {
			t.Errorf("%s: lists in place make a file of SHA-256 %s, through the builder %s", format, sums[1], sums[0])
		}
	}
}

// readLists reads the vertices column of a file of listLeading, a null
// list as nil.
func readLists(t *testing.T, path string) [][]int32 {
	t.Helper()
	tr := openTable(t, path)
	defer tr.Close()
	var out [][]int32
	err := tr.Scan(func(rec arrow.RecordBatch) error {
		col := rec.Column(1).(*array.List)
		values := col.ListValues().(*array.Int32)
		for i := range col.Len() {
			if col.IsNull(i) {
				out = append(out, nil)
				continue
			}
			lo, hi := col.ValueOffsets(i)
			out = append(out, append([]int32{}, values.Int32Values()[lo:hi]...))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAppendInt32ListRefusesOtherColumns: a column that is no list of
// int32, or that took a value through its builder, takes no list in
// place.
func TestAppendInt32ListRefusesOtherColumns(t *testing.T) {
	cfg, err := tables.NewConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, want string
		rows       func(out *Rows) error
	}{
		{"not a list", "not a list of int32", func(out *Rows) error {
			return out.AppendInt32List(0, []int32{1})
		}},
		{"after the builder", "through its builder", func(out *Rows) error {
			out.Leading(0).(*array.Int32Builder).Append(0)
			out.Leading(1).(*array.ListBuilder).AppendNull()
			if err := out.AppendNull(); err != nil {
				return err
			}
			out.Leading(0).(*array.Int32Builder).Append(1)
			return out.AppendInt32List(1, []int32{1})
		}},
	} {
		_, err := WriteFile(filepath.Join(t.TempDir(), "routes.parquet"), listLeading, nil, tables.ParquetEncoding{}, cfg, c.rows)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}
