package pairlist

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/formats/pairlist/pairlisttest"
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
		firstRow int64 // the row of the first pair
	}{
		{"csv", pairlisttest.WriteCSV(t, filepath.Join(dir, "pairs.csv"), pairs), 2},
		// Names that say otherwise: the bytes decide.
		{"csv.gz", writeFile(t, filepath.Join(dir, "pairs.parquet"), zipped.Bytes()), 2},
		{"arrow", pairlisttest.WriteArrow(t, filepath.Join(dir, "pairs.arrow"), pairs), 1},
		{"parquet", pairlisttest.WriteParquet(t, filepath.Join(dir, "pairs.csv.data"), pairs), 1},
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
	table := pairlisttest.WriteArrow(t, filepath.Join(dir, "stop.arrow"), pairs)
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
