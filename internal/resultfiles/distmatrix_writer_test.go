package resultfiles

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// matrixName is the name the compute command gives the matrix file.
const matrixName = "distances.bin"

// writeMatrix writes the int64 rows dist (n x n, row-major) through a
// DistanceMatrixWriter, one block per row in reverse order, and returns the path
// and the error of Close.
func writeMatrix(t *testing.T, n int, dist []int64) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), matrixName)
	w, err := NewDistanceMatrixWriter(path, n)
	if err != nil {
		t.Fatal(err)
	}
	for s := n - 1; s >= 0; s-- {
		rows := &results.Rows{First: s, Sources: []int32{int32(s)}, Width: n, Dist64: dist[s*n : (s+1)*n]}
		if err := w.Put(rows); err != nil {
			w.Abort()
			return path, err
		}
	}
	return path, w.Close()
}

// readMatrix reads back the n x n matrix file at path, failing the test on
// error.
func readMatrix(t *testing.T, path string, n int32) *paths.Matrix {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := formats.ReadDistanceMatrix(f, path, n)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDistanceMatrixWriterRange(t *testing.T) {
	inf := int64(graph.Inf32)
	path, err := writeMatrix(t, 2, []int64{0, paths.Unreachable, -inf, inf - 1})
	if err != nil {
		t.Fatal(err)
	}
	m := readMatrix(t, path, 2)
	if want := []int32{0, graph.Inf32, -graph.Inf32, graph.Inf32 - 1}; !slices.Equal(m.Dist32, want) {
		t.Errorf("read back %v, want %v", m.Dist32, want)
	}

	for _, d := range []int64{inf, -inf - 1, 1 << 40} {
		_, err := writeMatrix(t, 2, []int64{0, d, 0, 0})
		if err == nil || !strings.Contains(err.Error(), matrixName) {
			t.Errorf("distance %d: err = %v, want an error naming %s", d, err, matrixName)
		}
	}
}

// TestDistanceMatrixWriterChunks writes a matrix larger than one conversion chunk
// from 32-bit blocks, with "no path" spelled Inf32 and above, and reads it
// back; a distance below the range in a later chunk names its cell.
func TestDistanceMatrixWriterChunks(t *testing.T) {
	const n, per = 1500, 100 // 9 MB: two chunks
	if 4*n*n <= matrixChunkBytes {
		t.Fatal("the matrix fits one chunk: the test wants several")
	}
	dist := make([]int32, n*n)
	want := make([]int32, n*n)
	for i := range dist {
		dist[i] = int32(i%100000) - 50000
		switch i % 7 {
		case 3:
			dist[i] = graph.Inf32
		case 5:
			dist[i] = graph.Inf32 + int32(i%1000)
		}
		want[i] = min(dist[i], graph.Inf32)
	}
	write := func(dist []int32) (string, error) {
		path := filepath.Join(t.TempDir(), matrixName)
		w, err := NewDistanceMatrixWriter(path, n)
		if err != nil {
			t.Fatal(err)
		}
		for first := n - per; first >= 0; first -= per {
			rows := &results.Rows{First: first, Sources: make([]int32, per), Width: n, Dist32: dist[first*n : (first+per)*n]}
			for i := range rows.Sources {
				rows.Sources[i] = int32(first + i)
			}
			if err := w.Put(rows); err != nil {
				w.Abort()
				return path, err
			}
		}
		return path, w.Close()
	}
	path, err := write(dist)
	if err != nil {
		t.Fatal(err)
	}
	m := readMatrix(t, path, n)
	if !slices.Equal(m.Dist32, want) {
		t.Error("the matrix reads back differently")
	}
	dist[1234*n+777] = -graph.Inf32 - 1
	if _, err := write(dist); err == nil || !strings.Contains(err.Error(), "from 1234 to 777") {
		t.Errorf("a distance below the range: err = %v, want one naming 1234 to 777", err)
	}
}
