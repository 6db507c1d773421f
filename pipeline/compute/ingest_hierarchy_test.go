package compute

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// ingestTo runs ingest with args into a new folder and returns the folder
// and the manifest.
func ingestTo(t *testing.T, args ...string) (string, *output.IngestManifest) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "g")
	if _, err := ingest.Run(context.Background(), loadIngest(t, append(args, "-out", out)...), stagetest.QuietLog, io.Discard); err != nil {
		t.Fatal(err)
	}
	return out, readIngestManifest(t, out)
}

// readIngestManifest reads the ingest manifest of dir.
func readIngestManifest(t *testing.T, dir string) *output.IngestManifest {
	t.Helper()
	return readJSONFile[output.IngestManifest](t, filepath.Join(dir, output.ManifestName))
}

// readJSONFile decodes the JSON file at path into a new T.
func readJSONFile[T any](t *testing.T, path string) *T {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

// asOlderIngest makes the ingest output dir as an ingest older than the
// mapped hierarchy file wrote it: the hierarchy as its three tables
// alone. It removes HierarchyName and the manifest's mentions of it.
func asOlderIngest(t *testing.T, dir string) {
	t.Helper()
	removeFile(t, filepath.Join(dir, output.HierarchyName))
	m := readIngestManifest(t, dir)
	m.Files = slices.DeleteFunc(m.Files, func(f output.ManifestFile) bool { return f.Path == output.HierarchyName })
	if m.Hierarchy != nil {
		m.Hierarchy.Files = slices.DeleteFunc(m.Hierarchy.Files, func(f string) bool { return f == output.HierarchyName })
	}
	if err := output.WriteJSON(filepath.Join(dir, output.ManifestName), m); err != nil {
		t.Fatal(err)
	}
}

// hierarchyFilesPresent reports how many of the hierarchy's files (its
// mapped file and tables) exist in dir.
func hierarchyFilesPresent(dir string) int {
	count := 0
	for _, p := range append(tables.HierarchyFilesIn(dir).Paths(), filepath.Join(dir, output.HierarchyName)) {
		if _, err := os.Stat(p); err == nil {
			count++
		}
	}
	return count
}

// TestIngestHierarchySetting checks what each ingest.hierarchy setting
// stores and what the manifest says: on stores the mapped file and the
// three tables, listed
// with the others (so the folder stays pathflow's) and laid out by the
// generator's coordinates; off stores none, and so does auto on a small
// graph and on graphs that a trial contraction finds do not contract like
// a road network (random ones, a random-weight grid, a peer-to-peer
// graph), each saying why; auto on a road-like graph of 10,000 vertices
// stores one.
func TestIngestHierarchySetting(t *testing.T) {
	for _, tc := range []struct {
		name, input, setting string
		stored               bool
		reason               string
	}{
		{"on", "road:side=40,seed=1", "on", true, "is on"},
		{"off", "road:side=120,seed=1", "off", false, "is off"},
		{"auto, small", "road:side=40,seed=1", "auto", false, "below the 10000"},
		{"auto, road-like", "road:side=100,seed=3", "auto", true, "contracted like a road network"},
		{"auto, a dense road-like grid", "road:side=110,local=0.9,seed=2", "auto", true, "contracted like a road network"},
		{"auto, four arcs per vertex and more", "random-degree:n=20000,k=5", "auto", false, "does not contract like a road network"},
		{"auto, a square grid", "grid:side=110,lo=1,hi=1000,seed=1", "auto", false, "does not contract like a road network"},
		{"auto, random one-way arcs", "random-degree:n=20000,k=3", "auto", false, "does not contract like a road network"},
		{"auto, peer-to-peer", "p2p-Gnutella30.txt", "auto", false, "does not contract like a road network"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := []string{"-generate", tc.input}
			if strings.HasSuffix(tc.input, ".txt") {
				input = []string{"-input", mirrorFile(t, tc.input), "-weights", "hash"}
			}
			out, m := ingestTo(t, append(input, "-hierarchy", tc.setting)...)
			h := m.Hierarchy
			if h == nil || h.Stored != tc.stored || h.Setting != tc.setting || !strings.Contains(h.Reason, tc.reason) {
				t.Fatalf("manifest hierarchy %+v, want stored %t and a reason with %q", h, tc.stored, tc.reason)
			}
			if err := output.OwnerCheck(out, output.OverwritePathflow); err != nil {
				t.Fatalf("the folder is not pathflow's any more: %v", err)
			}
			want := 0
			if tc.stored {
				want = 4
				listed := []string{}
				for _, f := range m.Files {
					listed = append(listed, f.Path)
				}
				for _, f := range h.Files {
					if !slices.Contains(listed, f) {
						t.Errorf("%s is not listed with the files", f)
					}
				}
				if !h.Coordinates || h.GraphChecksum == "" || h.Rounds <= 0 || h.Shortcuts <= 0 {
					t.Errorf("manifest hierarchy %+v", h)
				}
			}
			if got := hierarchyFilesPresent(out); got != want {
				t.Fatalf("%d hierarchy files, want %d", got, want)
			}
		})
	}
}

// TestIngestHierarchyWithoutTables: with ingest.hierarchy_tables false
// the hierarchy is stored as its mapped file alone, which compute answers
// from; the graph.csr beside it records the graph checksum the hierarchy
// holds, so compute compares the two without hashing the arcs.
func TestIngestHierarchyWithoutTables(t *testing.T) {
	dir, m := ingestTo(t, "-generate", "road:side=30,seed=2", "-hierarchy", "on", "-hierarchy-tables=false")
	if !m.Hierarchy.Stored || !slices.Equal(m.Hierarchy.Files, []string{output.HierarchyName}) || hierarchyFilesPresent(dir) != 1 {
		t.Fatalf("manifest hierarchy %+v, %d files", m.Hierarchy, hierarchyFilesPresent(dir))
	}
	usedStored(t, computeCells(t, dir, "0,5,899", "1,450", "-algorithm", "ch"))
	g, err := input.LoadGraph(context.Background(), input.Spec{Path: dir}, stagetest.QuietLog, io.Discard, true)
	if err != nil {
		t.Fatal(err)
	}
	if sum := g.RecordedChecksum(); sum != m.Hierarchy.GraphChecksum || sum != g.CSR.Checksum(2) {
		t.Fatalf("graph.csr records checksum %q, the hierarchy %q", sum, m.Hierarchy.GraphChecksum)
	}
}

// TestIngestHierarchyOnRefusesConversions: a binary or DIMACS conversion
// has no folder of tables for a hierarchy to go with.
func TestIngestHierarchyOnRefusesConversions(t *testing.T) {
	l, err := config.Load("ingest", ingest.Keys(), []string{"-generate", "road:side=8", "-output-format", "binary", "-hierarchy", "on"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ingest.ConfigFrom(l)
	var cfgErr *config.Error
	if !errors.As(err, &cfgErr) || !strings.Contains(err.Error(), ingest.KeyIngestHierarchy) {
		t.Fatalf("got %v, want a configuration error naming %s", err, ingest.KeyIngestHierarchy)
	}
}
