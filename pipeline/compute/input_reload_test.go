package compute

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// shuffledGraph has arcs in no order of their sources, parallel arcs and
// self-loops, so its CSR's order is not its edge list's.
func shuffledGraph(n int32, m int, seed uint64) *graph.EdgeList {
	return graphtest.RandomGraph(rand.New(rand.NewPCG(seed, 2)), n, m, 1, 50, 0)
}

// ingestInput ingests input into a fresh folder with the extra arguments.
func ingestInput(t *testing.T, gr string, args ...string) string {
	t.Helper()
	out, _ := ingestTo(t, append([]string{"-input", gr}, args...)...)
	return out
}

// loadFolder loads an ingest output as compute does.
func loadFolder(dir string) (*input.LoadedGraph, error) {
	return input.LoadGraph(context.Background(), input.Spec{Path: dir}, stagetest.QuietLog, io.Discard, true)
}

// TestReloadFileGivesTheTablesGraph loads one input's ingest outputs with
// and without the reload file: the same CSR, vertex table and provenance,
// and compute writes byte-identical files from either.
func TestReloadFileGivesTheTablesGraph(t *testing.T) {
	gr := writeGR(t, "shuffled.gr", shuffledGraph(300, 2500, 1))
	for _, format := range []string{"parquet", "arrow"} {
		withFile := ingestInput(t, gr, "-output-format", format)
		without := ingestInput(t, gr, "-output-format", format, "-reload-file=false")
		if _, err := os.Stat(filepath.Join(without, input.ReloadName)); !os.IsNotExist(err) {
			t.Fatalf("reload_file false still wrote %s (%v)", input.ReloadName, err)
		}
		fast, err := loadFolder(withFile)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := loadFolder(without)
		if err != nil {
			t.Fatal(err)
		}
		if fast.CSR == nil || fast.File != filepath.Join(withFile, input.ReloadName) || slow.CSR != nil {
			t.Fatalf("%s: loaded from %s and %s", format, fast.File, slow.File)
		}
		a, b := fast.Rows(), slow.Rows()
		if a.N != b.N || !slices.Equal(a.Offsets, b.Offsets) || !slices.Equal(a.Targets, b.Targets) || !slices.Equal(a.Weights, b.Weights) {
			t.Fatalf("%s: the reloaded CSR differs from the tables'", format)
		}
		if !slices.Equal(fast.Vertices.OriginalID, slow.Vertices.OriginalID) || fast.Vertices.Original(0) != 1 {
			t.Fatalf("%s: original ids differ", format)
		}
		if fast.Name != slow.Name || fast.SHA256 != slow.SHA256 || fast.Format != slow.Format ||
			fast.Directed != slow.Directed || fast.Weighting != slow.Weighting {
			t.Fatalf("%s: provenance %+v, the tables say %+v", format, fast, slow)
		}
		for _, args := range [][]string{
			{"-sources", "1,7,300", "-algorithm", "dijkstra"},
			{"-sources", "all", "-algorithm", "floyd-warshall"},
			{"-sources", "5", "-algorithm", "bellman-ford", "-paths", "5:9"},
		} {
			outs := make([]string, 2)
			for i, in := range []string{withFile, without} {
				outs[i] = filepath.Join(t.TempDir(), "o")
				run := append([]string{"-input", in, "-out", outs[i], "-backend", "cpu", "-ids", "original"}, args...)
				if _, err := configThenCompute(t, run...); err != nil {
					t.Fatal(err)
				}
			}
			sameOutputFiles(t, outs[0], outs[1])
		}
	}
}

// sameOutputFiles compares every file of two compute outputs but their
// manifests, which hold timings, byte for byte.
func sameOutputFiles(t *testing.T, a, b string) {
	t.Helper()
	var names []string
	err := filepath.WalkDir(a, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == output.ManifestName {
			return err
		}
		rel, _ := filepath.Rel(a, path)
		names = append(names, rel)
		return nil
	})
	if err != nil || len(names) < 2 {
		t.Fatalf("%v: files %v", err, names)
	}
	for _, rel := range names {
		x, err := os.ReadFile(filepath.Join(a, rel))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Fatalf("%s differs between the reloaded and the tables' runs", rel)
		}
	}
}

// TestReloadFileRefusedWhenStale damages an ingest output's reload file in
// the ways a folder can go stale: each load is refused, naming the file.
func TestReloadFileRefusedWhenStale(t *testing.T) {
	gr := writeGR(t, "g.gr", shuffledGraph(200, 1000, 3))
	other := writeGR(t, "other.gr", shuffledGraph(200, 1000, 4))
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string)
		want   string
	}{
		{"truncated", func(t *testing.T, dir string) {
			path := filepath.Join(dir, input.ReloadName)
			st, _ := os.Stat(path)
			if err := os.Truncate(path, st.Size()-100); err != nil {
				t.Fatal(err)
			}
		}, "truncated"},
		{"from another ingest of the same input, simplified", func(t *testing.T, dir string) {
			copyFile(t, filepath.Join(ingestInput(t, gr, "-simplify", "reduce"), input.ReloadName), filepath.Join(dir, input.ReloadName))
		}, "stale reload file: its checksum"},
		{"of another graph", func(t *testing.T, dir string) {
			copyFile(t, filepath.Join(ingestInput(t, other), input.ReloadName), filepath.Join(dir, input.ReloadName))
		}, "stale"},
		{"listed but missing", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, input.ReloadName)); err != nil {
				t.Fatal(err)
			}
		}, "listed in manifest.json"},
		{"beside an output that does not list it", func(t *testing.T, dir string) {
			copyFile(t, filepath.Join(ingestInput(t, gr), input.ReloadName), filepath.Join(dir, input.ReloadName))
		}, "does not list it"},
		{"corrupt", func(t *testing.T, dir string) {
			path := filepath.Join(dir, input.ReloadName)
			b, _ := os.ReadFile(path)
			b[len(b)-8192] ^= 0x40
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "checksum mismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dir string
			if strings.HasPrefix(tc.name, "beside") {
				dir = ingestInput(t, gr, "-reload-file=false")
			} else {
				dir = ingestInput(t, gr)
			}
			tc.damage(t, dir)
			path := filepath.Join(dir, input.ReloadName)
			_, err := loadFolder(dir)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("load: %v, want an error naming %s and saying %q", err, path, tc.want)
			}
			if stageerr.KindOf(err) != stageerr.Input {
				t.Fatalf("exit code %d, want the input error's %d", stageerr.KindOf(err), stageerr.Input)
			}
		})
	}
}

// TestReloadFileIsTheSameForTheSameGraph: two ingests of one input write
// byte-identical reload files (nothing of the run is in them), and one
// stands in for the other.
func TestReloadFileIsTheSameForTheSameGraph(t *testing.T) {
	gr := writeGR(t, "g.gr", shuffledGraph(200, 1000, 3))
	a, b := ingestInput(t, gr), ingestInput(t, gr)
	x, err := os.ReadFile(filepath.Join(a, input.ReloadName))
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(filepath.Join(b, input.ReloadName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x, y) {
		t.Fatalf("two ingests of %s wrote different %s", gr, input.ReloadName)
	}
	copyFile(t, filepath.Join(b, input.ReloadName), filepath.Join(a, input.ReloadName))
	if g, err := loadFolder(a); err != nil || g.CSR == nil {
		t.Fatalf("the other ingest's identical reload file: %v", err)
	}
}

// TestReloadFileOfAnOlderManifest: a manifest that records no checksum of
// the reload file (an older ingest's) has it checked by its SHA-256: it
// loads as it is, and is refused once replaced.
func TestReloadFileOfAnOlderManifest(t *testing.T) {
	gr := writeGR(t, "g.gr", shuffledGraph(200, 1000, 3))
	dir := ingestInput(t, gr)
	m := readIngestManifest(t, dir)
	for i := range m.Files {
		m.Files[i].Checksum = ""
	}
	if err := output.WriteJSON(filepath.Join(dir, output.ManifestName), m); err != nil {
		t.Fatal(err)
	}
	if g, err := loadFolder(dir); err != nil || g.CSR == nil {
		t.Fatalf("load: %v", err)
	}
	path := filepath.Join(dir, input.ReloadName)
	copyFile(t, filepath.Join(ingestInput(t, gr, "-simplify", "reduce"), input.ReloadName), path)
	_, err := loadFolder(dir)
	if err == nil || stageerr.KindOf(err) != stageerr.Input || !strings.Contains(err.Error(), path+": corrupt, or changed since ingest") {
		t.Fatalf("a replaced reload file: %v (kind %v)", err, stageerr.KindOf(err))
	}
}

// TestIngestOutputWithoutReloadFileLoads is an older ingest's output: no
// reload file, a manifest that lists none. It loads from the tables.
func TestIngestOutputWithoutReloadFileLoads(t *testing.T) {
	e := shuffledGraph(100, 700, 5)
	dir := ingestInput(t, writeGR(t, "g.gr", e), "-reload-file=false")
	m, err := output.ReadManifest(dir)
	if err != nil || len(m.Files) != 2 {
		t.Fatalf("manifest %+v, %v", m, err)
	}
	g, err := loadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.CSR != nil || g.File != filepath.Join(dir, "edges.parquet") || !slices.Equal(g.Edges.Src, e.Src) || !slices.Equal(g.Edges.Weight, e.Weight) {
		t.Fatalf("loaded from %s", g.File)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIngestOfAnIngestOutputKeepsArcOrder reads an ingest output that has
// a reload file back through ingest: the tables it writes keep the
// input's arc order, not the reload file's grouping by source.
func TestIngestOfAnIngestOutputKeepsArcOrder(t *testing.T) {
	e := shuffledGraph(100, 700, 6)
	first := ingestInput(t, writeGR(t, "g.gr", e))
	again := ingestInput(t, first, "-output-format", "arrow")
	got, _, _, err := tables.ReadGraph(tables.GraphFilesIn(again, tables.Arrow))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Src, e.Src) || !slices.Equal(got.Dst, e.Dst) || !slices.Equal(got.Weight, e.Weight) {
		t.Fatal("ingesting an ingest output changed the order of its arcs")
	}
}
