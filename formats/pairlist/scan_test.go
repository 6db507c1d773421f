package pairlist

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pathflow/pathflow/formats"
)

// pairs is the list every file of the tests holds, in file order.
var pairs = [][2]int64{{4, 200}, {4, 17}, {90, 3}, {12, 299}, {90, 3}}

// TestScan reads the same pair list from each file kind and checks the
// pairs, their order and their row numbers.
func TestScan(t *testing.T) {
	var csv strings.Builder
	csv.WriteString("source,target\n")
	for _, p := range pairs {
		csv.WriteString(strings.Join([]string{itoa(p[0]), itoa(p[1])}, ",") + "\n")
	}
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(csv.String()))
	zw.Close()
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		path     string
		firstRow int64 // the row of the first pair
	}{
		{"csv", writeFile(t, filepath.Join(dir, "pairs.csv"), []byte(csv.String())), 2},
		// Names that say otherwise: the bytes decide.
		{"csv.gz", writeFile(t, filepath.Join(dir, "pairs.parquet"), zipped.Bytes()), 2},
		{"arrow", writeTable(t, filepath.Join(dir, "pairs.arrow"), false), 1},
		{"parquet", writeTable(t, filepath.Join(dir, "pairs.csv.data"), true), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got [][2]int64
			var rows []int64
			err := scanPath(t, tc.path, func(row, s, d int64) error {
				got, rows = append(got, [2]int64{s, d}), append(rows, row)
				return nil
			})
			if err != nil {
				t.Fatal(err)
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
	if err := scanPath(t, bad, func(int64, int64, int64) error { return nil }); !errors.As(err, &pe) || pe.File != bad || pe.Line != 2 {
		t.Errorf("bad CSV: %v, want a ParseError at %s:2", err, bad)
	}
	short := writeFile(t, filepath.Join(dir, "short.arrow"), []byte("ARROW1"))
	if err := scanPath(t, short, func(int64, int64, int64) error { return nil }); err == nil || !strings.HasPrefix(err.Error(), "tables: ") || !strings.Contains(err.Error(), short) {
		t.Errorf("broken Arrow file: %v, want a tables error naming it", err)
	}
	stop := errors.New("stop")
	table := writeTable(t, filepath.Join(dir, "stop.arrow"), false)
	if err := scanPath(t, table, func(int64, int64, int64) error { return stop }); err != stop {
		t.Errorf("fn's error: %v, want it unwrapped", err)
	}
}

func scanPath(t *testing.T, path string, fn func(row, source, target int64) error) error {
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

// writeTable writes pairs as an Arrow IPC file with int32 columns, or as
// Parquet with int64 columns target and source in that order beside an
// ignored one.
func writeTable(t *testing.T, path string, parquet bool) string {
	t.Helper()
	fields := []arrow.Field{{Name: "source", Type: arrow.PrimitiveTypes.Int32}, {Name: "target", Type: arrow.PrimitiveTypes.Int32}}
	if parquet {
		fields = []arrow.Field{{Name: "target", Type: arrow.PrimitiveTypes.Int64}, {Name: "note", Type: arrow.BinaryTypes.String}, {Name: "source", Type: arrow.PrimitiveTypes.Int64}}
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, p := range pairs {
		if parquet {
			b.Field(0).(*array.Int64Builder).Append(p[1])
			b.Field(1).(*array.StringBuilder).Append("x")
			b.Field(2).(*array.Int64Builder).Append(p[0])
		} else {
			b.Field(0).(*array.Int32Builder).Append(int32(p[0]))
			b.Field(1).(*array.Int32Builder).Append(int32(p[1]))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if parquet {
		w, err := pqarrow.NewFileWriter(schema, f, nil, pqarrow.DefaultWriterProps())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
