package cpu

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// blockWidths runs req on b and returns the rows (as narrowedRows does)
// and, by row, whether its block held int32 distances.
func blockWidths(t *testing.T, b *Backend, req backend.Request) (dist [][]int64, parent [][]int32, narrow []bool) {
	t.Helper()
	dist, parent, narrow = make([][]int64, len(req.Sources)), make([][]int32, len(req.Sources)), make([]bool, len(req.Sources))
	var mu sync.Mutex
	err := b.Run(context.Background(), req, func(rows *results.Rows) error {
		defer rows.Release()
		if err := req.CheckRows(rows); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		for i := range rows.Len() {
			lo, hi := rows.Span(i)
			row := rows.First + i
			narrow[row] = rows.Dist32 != nil
			for j := lo; j < hi; j++ {
				dist[row] = append(dist[row], rows.Distances().Weight(j))
			}
			parent[row] = append([]int32{}, rows.Parent[lo:hi]...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dist, parent, narrow
}

// Whole ch trees in blocks smaller than a sweep hold their distances as
// int32 where they fit: the rows and parents (and the cutoff's cells) are
// those of whole sweeps copied at 8 bytes; a row with a distance of
// graph.Inf32 or more comes at 8 bytes, its distances whole.
func TestWholeTreeBlocksNarrowWhereRowsFit(t *testing.T) {
	road, _, err := generate.Road(30, 2)
	if err != nil {
		t.Fatal(err)
	}
	// A chain whose far end is 6 x 2^28 away, past graph.Inf32 and below
	// 2^31 - 1 (narrow lanes still hold it), with a shortcut back so that
	// sources near the end see short rows.
	const links = 40
	long := graph.NewEdgeList(links+1, 0)
	for v := range int32(links) {
		w := int32(1)
		if v%7 == 0 {
			w = 1 << 28
		}
		long.Add(v, v+1, w)
		long.Add(v+1, v, w)
	}
	for _, c := range []struct {
		name      string
		e         *graph.EdgeList
		sources   []int32
		cutoff    int64
		allNarrow bool
	}{
		{"road 30", road, []int32{0, 5, 899, 450, 17, 3, 2, 1, 600, 601}, results.NoCutoff, true},
		{"road 30, a cutoff", road, []int32{0, 5, 899, 450, 17, 3, 2, 1, 600, 601}, 2000, true},
		{"a chain past Inf32", long, []int32{0, links, 20, 3}, results.NoCutoff, false},
	} {
		req, err := requestFor(c.e, backend.Algorithm{Name: backend.AlgorithmCH}, c.sources, true)
		if err != nil {
			t.Fatal(err)
		}
		req.MaxDistance = c.cutoff
		n := int(c.e.N)
		ref := New(1)
		ref.blockValues = 8 * n // whole sweeps a block, at 8 bytes
		wantDist, wantParent, refNarrow := blockWidths(t, ref, req)
		if slices.Contains(refNarrow, true) {
			t.Fatalf("%s: blocks of whole sweeps came at 4 bytes", c.name)
		}
		for _, workers := range []int{1, 3} {
			b := New(workers)
			b.blockValues = n // a row a block
			dist, parent, narrow := blockWidths(t, b, req)
			for i := range c.sources {
				if !slices.Equal(dist[i], wantDist[i]) || !slices.Equal(parent[i], wantParent[i]) {
					t.Fatalf("%s, %d workers: row %d differs from whole sweeps'", c.name, workers, i)
				}
				if c.allNarrow && !narrow[i] {
					t.Errorf("%s, %d workers: row %d at 8 bytes", c.name, workers, i)
				}
			}
			if !c.allNarrow && narrow[0] {
				t.Errorf("%s, %d workers: the row past Inf32 came at 4 bytes", c.name, workers)
			}
		}
	}
}
