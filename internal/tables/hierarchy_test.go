package tables

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/shortest"
)

// roadHierarchy returns a small road graph and its hierarchy, laid out by
// the graph's coordinates and marked with its checksum.
func roadHierarchy(t testing.TB, side int32, seed uint64) (*graph.CSR, *hierarchy.Hierarchy) {
	t.Helper()
	e, vs, err := generate.Road(side, seed)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	h, err := hierarchy.Build(context.Background(), g, hierarchy.WithCoordinates(vs.X, vs.Y), hierarchy.WithChecksum(g.Checksum(2)))
	if err != nil {
		t.Fatal(err)
	}
	return g, h
}

// sameHierarchy fails unless got holds exactly want's arrays and facts.
func sameHierarchy(t *testing.T, got, want *hierarchy.Hierarchy) {
	t.Helper()
	same := got.N == want.N && got.Rounds == want.Rounds && got.GraphChecksum == want.GraphChecksum &&
		slices.Equal(got.Rank, want.Rank) && slices.Equal(got.Order, want.Order) &&
		slices.Equal(got.UpMiddle, want.UpMiddle) && slices.Equal(got.DownMiddle, want.DownMiddle)
	for _, pair := range [][2]*graph.CSR{{&got.Up, &want.Up}, {&got.Down, &want.Down}} {
		same = same && pair[0].N == pair[1].N && slices.Equal(pair[0].Offsets, pair[1].Offsets) &&
			slices.Equal(pair[0].Targets, pair[1].Targets) && slices.Equal(pair[0].Weights, pair[1].Weights)
	}
	if !same {
		t.Fatal("the hierarchy read back differs from the one written")
	}
}

// TestHierarchyRoundTrip writes a hierarchy, reads it back identical
// (small row groups, so several per column, and one worker or several)
// and checks the distances of its table and of PHAST against Dijkstra's.
func TestHierarchyRoundTrip(t *testing.T) {
	g, h := roadHierarchy(t, 30, 7)
	files := HierarchyFilesIn(t.TempDir())
	infos, err := WriteHierarchy(files, h, map[string]string{"pathflow.input_file": "road"}, WithBatchRows(500), WithCompression(Snappy))
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 3 || infos[0].Rows != int64(h.N) || infos[1].Rows != int64(len(h.Up.Targets)) || infos[2].Rows != int64(len(h.Down.Targets)) {
		t.Fatalf("file infos %+v", infos)
	}
	if sum, err := ReadHierarchyChecksum(files); err != nil || sum != h.GraphChecksum {
		t.Fatalf("checksum %q, %v; want %q", sum, err, h.GraphChecksum)
	}
	for _, workers := range []int{1, 4} {
		got, meta, err := ReadHierarchy(files, WithConcurrency(workers))
		if err != nil {
			t.Fatal(err)
		}
		sameHierarchy(t, got, h)
		if meta["pathflow.input_file"] != "road" || meta[MetaHierarchyRounds] == "" {
			t.Fatalf("metadata %v", meta)
		}
		if workers == 1 {
			continue
		}
		sources := []int32{0, 17, 450, g.N - 1}
		targets := []int32{3, 299, 600, 899}
		table, err := got.Table(sources, targets, 2)
		if err != nil {
			t.Fatal(err)
		}
		trees := make([]int64, len(sources)*int(g.N))
		if err := got.Trees(sources, trees, 2); err != nil {
			t.Fatal(err)
		}
		for i, s := range sources {
			ref, err := shortest.Dijkstra(context.Background(), g, s, false)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(trees[i*int(g.N):(i+1)*int(g.N)], ref.Dist) {
				t.Fatalf("PHAST row of source %d differs from Dijkstra's", s)
			}
			for j, v := range targets {
				if table[i*len(targets)+j] != ref.Dist[v] {
					t.Fatalf("table %d -> %d: %d, Dijkstra %d", s, v, table[i*len(targets)+j], ref.Dist[v])
				}
			}
		}
	}
}

// TestHierarchyReadRefusesMixedTables checks that an Up table of another
// hierarchy beside the ranks of this one is refused, naming the file.
func TestHierarchyReadRefusesMixedTables(t *testing.T) {
	_, a := roadHierarchy(t, 10, 1)
	_, b := roadHierarchy(t, 10, 2)
	dirA, dirB := t.TempDir(), t.TempDir()
	if _, err := WriteHierarchy(HierarchyFilesIn(dirA), a, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteHierarchy(HierarchyFilesIn(dirB), b, nil); err != nil {
		t.Fatal(err)
	}
	up, err := os.ReadFile(HierarchyFilesIn(dirB).Up)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(HierarchyFilesIn(dirA).Up, up, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = ReadHierarchy(HierarchyFilesIn(dirA))
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dirA, "hierarchy_up.parquet")) {
		t.Fatalf("mixed tables: %v", err)
	}
}
