package tables

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/hierarchy/hierarchytest"
	"github.com/pathflow/pathflow/internal/shortest"
)

// TestHierarchyRoundTrip writes a hierarchy, reads it back identical
// (small row groups, so several per column, and one worker or several)
// and checks the distances of its table and of PHAST against Dijkstra's.
func TestHierarchyRoundTrip(t *testing.T) {
	g, h := hierarchytest.Road(t, 30, 7)
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
		hierarchytest.RequireSame(t, got, h)
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
	_, a := hierarchytest.Road(t, 10, 1)
	_, b := hierarchytest.Road(t, 10, 2)
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

// TestSharedDownWritesTheSameTables: a symmetric graph's hierarchy, whose
// Down shares Up's arrays, is written byte for byte as the same hierarchy
// with Down in arrays of its own, and the tables do not change unnoticed:
// the SHA-256s below are of the tables Build's hierarchy of
// road:side=40,seed=1 gives (ranks, up, down; up and down hold the same
// rows, so the same bytes), since contraction renumbers the vertices by
// locality and scores with 25 settled vertices; a change to the
// contraction changes them, deliberately.
func TestSharedDownWritesTheSameTables(t *testing.T) {
	_, h := hierarchytest.Road(t, 40, 1)
	if !hierarchytest.SharesDown(h) {
		t.Fatal("the road graph's hierarchy does not share Up's arrays with Down")
	}
	write := func(h *hierarchy.Hierarchy) []string {
		infos, err := WriteHierarchy(HierarchyFilesIn(t.TempDir()), h, map[string]string{"k": "v"}, WithBatchRows(500), WithCompression(Snappy))
		if err != nil {
			t.Fatal(err)
		}
		sums := make([]string, len(infos))
		for i, info := range infos {
			sums[i] = info.SHA256
		}
		return sums
	}
	before := []string{
		"b1dca98d89369dc65451f7577de566481cfb907187cc0a37cb93101fc9631154",
		"6253eca144fde53877caa9dcef79f22cdbc92a9617084fd4f2dc553a712cfb64",
		"6253eca144fde53877caa9dcef79f22cdbc92a9617084fd4f2dc553a712cfb64",
	}
	shared, own := write(h), write(hierarchytest.OwnDown(h))
	if !slices.Equal(shared, own) || !slices.Equal(shared, before) {
		t.Fatalf("shared Down writes %v, own Down %v; want %v", shared, own, before)
	}
}
