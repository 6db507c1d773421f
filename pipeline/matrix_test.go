package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// writeMatrix writes the int64 rows dist (n x n, row-major) through a
// matrixWriter, one block per row in reverse order, and returns the path
// and the error of Close.
func writeMatrix(t *testing.T, n int, dist []int64) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), MatrixName)
	w, err := newMatrixWriter(path, n)
	if err != nil {
		t.Fatal(err)
	}
	for s := n - 1; s >= 0; s-- {
		rows := &backend.Rows{First: s, Sources: []int32{int32(s)}, Width: n, Dist64: dist[s*n : (s+1)*n]}
		if err := w.Put(rows); err != nil {
			w.Abort()
			return path, err
		}
	}
	return path, w.Close()
}

func TestMatrixWriterRange(t *testing.T) {
	inf := int64(graph.Inf32)
	path, err := writeMatrix(t, 2, []int64{0, paths.Unreachable, -inf, inf - 1})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := formats.ReadDistanceMatrix(f, path, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{0, graph.Inf32, -graph.Inf32, graph.Inf32 - 1}; !slices.Equal(m.Dist32, want) {
		t.Errorf("read back %v, want %v", m.Dist32, want)
	}

	for _, d := range []int64{inf, -inf - 1, 1 << 40} {
		_, err := writeMatrix(t, 2, []int64{0, d, 0, 0})
		if err == nil || !strings.Contains(err.Error(), MatrixName) {
			t.Errorf("distance %d: err = %v, want an error naming %s", d, err, MatrixName)
		}
	}
}
