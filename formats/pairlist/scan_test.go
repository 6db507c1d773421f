package pairlist

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/formats/pairlist/pairlisttest"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// pairs is the list every file of the tests holds, in file order.
var pairs = [][2]int64{{4, 200}, {4, 17}, {90, 3}, {12, 299}, {90, 3}}

// TestScan reads the same pair list from each file kind and checks the
// pairs, their order and their row numbers.
func TestScan(t *testing.T) {
	csv := pairlisttest.CSV(pairs)
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(csv))
	zw.Close()
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		path     string
		firstRow int64    // the row of the first pair
		others   []string // the other columns' names
	}{
		{"csv", pairlisttest.WriteCSV(t, filepath.Join(dir, "pairs.csv"), pairs), 2, nil},
		// Names that say otherwise: the bytes decide.
		{"csv.gz", writeFile(t, filepath.Join(dir, "pairs.parquet"), zipped.Bytes()), 2, nil},
		{"arrow", pairlisttest.WriteArrow(t, filepath.Join(dir, "pairs.arrow"), pairs), 1, nil},
		{"parquet", pairlisttest.WriteParquet(t, filepath.Join(dir, "pairs.csv.data"), pairs), 1, []string{"note"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got [][2]int64
			var rows []int64
			others, err := scanPath(t, tc.path, func(row, s, d int64) error {
				got, rows = append(got, [2]int64{s, d}), append(rows, row)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			defer others.Release()
			var names []string
			for j, f := range others.Fields {
				names = append(names, f.Name)
				if n := others.Arrays[j].Len(); n != len(pairs) {
					t.Errorf("column %q: %d values for %d pairs", f.Name, n, len(pairs))
				}
			}
			if !slices.Equal(names, tc.others) {
				t.Errorf("other columns %q, want %q", names, tc.others)
			}
			if !slices.Equal(got, pairs) {
				t.Errorf("pairs %v, want %v", got, pairs)
			}
			if rows[0] != tc.firstRow || rows[len(rows)-1] != tc.firstRow+int64(len(pairs))-1 {
				t.Errorf("rows %v, want from %d", rows, tc.firstRow)
			}
		})
	}
}

// TestScanErrors checks that each reader's errors come back as they are,
// naming the file, and that fn's error stops the scan.
func TestScanErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, filepath.Join(dir, "bad.csv"), []byte("source,target\n1,x\n"))
	var pe *formats.ParseError
	if _, err := scanPath(t, bad, func(int64, int64, int64) error { return nil }); !errors.As(err, &pe) || pe.File != bad || pe.Line != 2 {
		t.Errorf("bad CSV: %v, want a ParseError at %s:2", err, bad)
	}
	short := writeFile(t, filepath.Join(dir, "short.arrow"), []byte("ARROW1"))
	if _, err := scanPath(t, short, func(int64, int64, int64) error { return nil }); err == nil || !strings.HasPrefix(err.Error(), "tables: ") || !strings.Contains(err.Error(), short) {
		t.Errorf("broken Arrow file: %v, want a tables error naming it", err)
	}
	stop := errors.New("stop")
	table := pairlisttest.WriteArrow(t, filepath.Join(dir, "stop.arrow"), pairs)
	if _, err := scanPath(t, table, func(int64, int64, int64) error { return stop }); err != stop {
		t.Errorf("fn's error: %v, want it unwrapped", err)
	}
}

func scanPath(t *testing.T, path string, fn func(row, source, target int64) error) (tables.OtherColumns, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return Scan(f, fn)
}

func writeFile(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestScanKeepsOtherColumns reads the other columns of a pair list: as
// text from CSV, an empty field null; with their types and nulls from
// Parquet; one value per pair, in file order, in every file kind.
func TestScanKeepsOtherColumns(t *testing.T) {
	dir := t.TempDir()
	csv := writeFile(t, filepath.Join(dir, "pairs.csv"), []byte("trip,source,target,mode\nt1,1,2,car\nt2,3,4,\n\"t,3\",1,2,bike\n"))
	others, err := scanPath(t, csv, func(int64, int64, int64) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	defer others.Release()
	if got := describe(others); got != "trip utf8 [t1 t2 t,3]; mode utf8 [car (null) bike]" {
		t.Errorf("CSV: %s", got)
	}

	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{
		{Name: "weight", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "source", Type: arrow.PrimitiveTypes.Int64},
		{Name: "trip", Type: arrow.PrimitiveTypes.Int64},
		{Name: "target", Type: arrow.PrimitiveTypes.Int32},
	}, nil))
	defer b.Release()
	b.Field(0).(*array.Float64Builder).AppendValues([]float64{0.5, 0, 2}, []bool{true, false, true})
	b.Field(1).(*array.Int64Builder).AppendValues([]int64{1, 3, 3}, nil)
	b.Field(2).(*array.Int64Builder).AppendValues([]int64{1 << 40, 7, -1}, nil)
	b.Field(3).(*array.Int32Builder).AppendValues([]int32{2, 4, 1}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	parquet := tablestest.WriteParquet(t, filepath.Join(dir, "pairs.parquet"), rec, nil)
	var got [][2]int64
	others2, err := scanPath(t, parquet, func(_, s, d int64) error {
		got = append(got, [2]int64{s, d})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer others2.Release()
	if !slices.Equal(got, [][2]int64{{1, 2}, {3, 4}, {3, 1}}) {
		t.Errorf("Parquet pairs %v", got)
	}
	if got := describe(others2); got != "weight float64 [0.5 (null) 2]; trip int64 [1099511627776 7 -1]" {
		t.Errorf("Parquet: %s", got)
	}
}

// describe renders other columns as "name type [values]; ...".
func describe(o tables.OtherColumns) string {
	var parts []string
	for j, f := range o.Fields {
		a := o.Arrays[j]
		vals := make([]string, a.Len())
		for i := range vals {
			vals[i] = a.ValueStr(i)
		}
		parts = append(parts, fmt.Sprintf("%s %s %v", f.Name, a.DataType(), vals))
	}
	return strings.Join(parts, "; ")
}
