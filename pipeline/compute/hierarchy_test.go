package compute

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/chfile"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// computeCells runs compute with args on the ingest output dir and checks
// every written cell (and parent, when written) against Dijkstra's on the graph read
// back from dir. It returns the run's manifest.
func computeCells(t *testing.T, dir string, sources, targets string, args ...string) *output.Manifest {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	res := runCompute(t, loadCompute(t, "", append([]string{"-input", dir, "-out", out, "-backend", "cpu",
		"-sources", sources, "-targets", targets}, args...)...))
	g := graph.BuildCSR(loadInput(t, input.Spec{Path: dir}))
	names := DenseNames(g.N)
	src, err := names.Sources(KeySources, strings.Split(sources, ","))
	if err != nil {
		t.Fatal(err)
	}
	tgt, err := names.Targets(KeyTargets, strings.Split(targets, ","))
	if err != nil {
		t.Fatal(err)
	}
	ref := refDists(g, src)
	rows, _, hasParents := readLong(t, filepath.Join(out, output.DistancesDir))
	want := expectLong(ref, src, tgt, g.N, -1)
	if hasParents {
		compareLong(t, g, ref, rows, want)
		return res.Manifest
	}
	compareDists(t, rows, want)
	return res.Manifest
}

// usedStored fails unless the run answered from the stored hierarchy
// without building one.
func usedStored(t *testing.T, m *output.Manifest) {
	t.Helper()
	if m.Algorithm != backend.AlgorithmCH {
		t.Fatalf("algorithm %q (%s), want ch", m.Algorithm, m.Reason)
	}
	if _, ok := m.RunFacts[FactStoredHierarchy].(StoredHierarchyFacts); !ok {
		t.Fatalf("run facts %v: no stored hierarchy", m.RunFacts)
	}
	if _, built := m.RunFacts[hierarchy.FactKey]; built {
		t.Fatalf("run facts %v: a hierarchy was built beside the stored one", m.RunFacts)
	}
}

// TestComputeCHFromStoredHierarchy ingests a road graph with its
// hierarchy and computes ch from it, whole rows and narrowed to targets,
// beside Parquet and Arrow IPC graph tables: every cell and parent equals
// Dijkstra's, and no hierarchy is built.
func TestComputeCHFromStoredHierarchy(t *testing.T) {
	dir, _ := ingestTo(t, "-generate", "road:side=40,seed=1", "-hierarchy", "on")
	usedStored(t, computeCells(t, dir, "0,17,800,1599", "all", "-algorithm", "ch"))
	m := computeCells(t, dir, "3,1000,1599", "5,900,1234", "-algorithm", "ch")
	usedStored(t, m)
	if !strings.Contains(m.Reason, "stored with the input") || !strings.Contains(m.Reason, output.HierarchyName) {
		t.Errorf("reason %q does not name the stored hierarchy", m.Reason)
	}
	if files := m.RunFacts[FactStoredHierarchy].(StoredHierarchyFacts).Files; !slices.Equal(files, []string{output.HierarchyName}) {
		t.Errorf("read %v, want %s alone", files, output.HierarchyName)
	}
	usedStored(t, computeCells(t, dir, "0-5", "7,8", "-algorithm", "ch", "-parents=false"))
	arrow, _ := ingestTo(t, "-generate", "road:side=20,seed=5", "-hierarchy", "on", "-output-format", "arrow")
	usedStored(t, computeCells(t, arrow, "0-5", "7,8,399", "-algorithm", "ch"))
}

// TestComputeAutoPicksStoredHierarchy: auto answers from a stored
// hierarchy that matches the graph when the query has several sources,
// targets or a pair list, says so in the manifest (a block size, which applies to
// Floyd-Warshall, does not get in the way), and keeps Dijkstra for one
// whole row.
func TestComputeAutoPicksStoredHierarchy(t *testing.T) {
	dir, _ := ingestTo(t, "-generate", "road:side=40,seed=1", "-hierarchy", "on")
	m := computeCells(t, dir, "0-3", "100,200", "-algorithm", "auto", "-block-size", "64")
	usedStored(t, m)
	if !strings.Contains(m.Reason, "auto: the input folder holds a contraction hierarchy of this graph") || !strings.Contains(m.Reason, "4 sources x 2 targets") {
		t.Errorf("reason %q", m.Reason)
	}
	if m := computeCells(t, dir, "7", "all"); m.Algorithm != backend.AlgorithmDijkstra {
		t.Errorf("one whole row: algorithm %q (%s), want dijkstra", m.Algorithm, m.Reason)
	}
	if m := computeCells(t, dir, "7", "9,1500"); m.Algorithm != backend.AlgorithmCH {
		t.Errorf("one source with targets: algorithm %q (%s), want ch", m.Algorithm, m.Reason)
	}
	pairs := stagetest.WriteFile(t, "pairs.csv", "source,target\n3,1500\n3,7\n900,0\n")
	res, err := configThenCompute(t, "-input", dir, "-out", filepath.Join(t.TempDir(), "out"), "-backend", "cpu", "-pairs", pairs)
	if err != nil {
		t.Fatal(err)
	}
	usedStored(t, res.Manifest)
	if !strings.Contains(res.Manifest.Reason, "a pair list from 2 sources") {
		t.Errorf("pair list: reason %q", res.Manifest.Reason)
	}
}

// TestComputeRefusesStaleHierarchy: the hierarchy of another graph
// copied into an ingest output, as its mapped file or, in an older ingest
// output, as its tables, is refused, naming the file, as bad input (exit
// 3), by ch and by auto alike.
func TestComputeRefusesStaleHierarchy(t *testing.T) {
	for _, older := range []bool{false, true} {
		dir, _ := ingestTo(t, "-generate", "road:side=40,seed=1", "-hierarchy", "on")
		other, _ := ingestTo(t, "-generate", "road:side=40,seed=2", "-hierarchy", "on")
		names, named := []string{output.HierarchyName}, filepath.Join(dir, output.HierarchyName)
		if older {
			asOlderIngest(t, dir)
			names, named = []string{"hierarchy_ranks.parquet", "hierarchy_up.parquet", "hierarchy_down.parquet"}, tables.HierarchyFilesIn(dir).Ranks
		}
		for _, name := range names {
			copyFile(t, filepath.Join(other, name), filepath.Join(dir, name))
		}
		for _, alg := range []string{"ch", "auto"} {
			_, err := configThenCompute(t, "-input", dir, "-out", filepath.Join(t.TempDir(), "out"), "-backend", "cpu",
				"-algorithm", alg, "-sources", "0-3", "-targets", "5,6")
			if err == nil || stageerr.KindOf(err) != stageerr.Input || !strings.Contains(err.Error(), named) ||
				!strings.Contains(err.Error(), "another graph") {
				t.Fatalf("%s: got %v (kind %v), want an input error naming %s", alg, err, stageerr.KindOf(err), named)
			}
		}
	}
}

// TestComputeCHFromOlderIngest: an ingest output without the mapped file
// (an older ingest's) is answered from the hierarchy's tables, as
// before, and the answers are the same.
func TestComputeCHFromOlderIngest(t *testing.T) {
	dir, _ := ingestTo(t, "-generate", "road:side=40,seed=1", "-hierarchy", "on")
	asOlderIngest(t, dir)
	m := computeCells(t, dir, "3,1000,1599", "5,900,1234", "-algorithm", "ch")
	usedStored(t, m)
	if files := m.RunFacts[FactStoredHierarchy].(StoredHierarchyFacts).Files; !slices.Equal(files, []string{"hierarchy_ranks.parquet", "hierarchy_up.parquet", "hierarchy_down.parquet"}) {
		t.Fatalf("read %v, want the tables", files)
	}
}

// TestComputeShardReadsStoredHierarchy: a shard of a sharded run answers
// from the one stored hierarchy.
func TestComputeShardReadsStoredHierarchy(t *testing.T) {
	dir, _ := ingestTo(t, "-generate", "road:side=30,seed=4", "-hierarchy", "on")
	res, err := configThenCompute(t, "-input", dir, "-out", filepath.Join(t.TempDir(), "dataset"), "-backend", "cpu",
		"-sources", "0-9", "-targets", "5,600", "-shard", "1/2")
	if err != nil {
		t.Fatal(err)
	}
	usedStored(t, res.Manifest)
}

// TestComputeCHStoredOnRome99 stores a hierarchy of rome99 (ingest.hierarchy:
// on, since auto leaves a graph of 3,353 vertices alone) and checks ch
// from it against Dijkstra.
func TestComputeCHStoredOnRome99(t *testing.T) {
	path := mirrorFile(t, "rome99.gr")
	dir, m := ingestTo(t, "-input", path, "-hierarchy", "on")
	if !m.Hierarchy.Stored || m.Hierarchy.Coordinates {
		t.Fatalf("manifest hierarchy %+v", m.Hierarchy)
	}
	usedStored(t, computeCells(t, dir, "0,1,2,1000,3352", "all", "-algorithm", "ch"))
	usedStored(t, computeCells(t, dir, "0-39", "4,77,2500,3000", "-algorithm", "auto"))
}

// TestStoredHierarchyWhateverTheArcOrder stores a hierarchy of a graph
// whose file lists its arcs out of source order, and checks that compute
// accepts it both from the reload file (arcs grouped by source) and from
// the tables (arcs in file order): the checksum is taken over the rows.
func TestStoredHierarchyWhateverTheArcOrder(t *testing.T) {
	data, err := os.ReadFile(mirrorFile(t, "rome99.gr"))
	if err != nil {
		t.Fatal(err)
	}
	var head, arcs []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "a ") {
			arcs = append(arcs, line)
		} else {
			head = append(head, line)
		}
	}
	slices.Reverse(arcs)
	path := filepath.Join(t.TempDir(), "reversed.gr")
	if err := os.WriteFile(path, []byte(strings.Join(append(head, arcs...), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, reload := range []string{"true", "false"} {
		dir, m := ingestTo(t, "-input", path, "-hierarchy", "on", "-reload-file="+reload)
		if !m.Hierarchy.Stored {
			t.Fatalf("reload file %s: manifest hierarchy %+v", reload, m.Hierarchy)
		}
		usedStored(t, computeCells(t, dir, "0,17,3000", "all", "-algorithm", "ch"))
	}
}

// TestStoredHierarchyShortcutsFromManifest: a run from a mapped hierarchy
// reports the shortcuts its ingest manifest records, which are those the
// file holds; a manifest that records none has them counted.
func TestStoredHierarchyShortcutsFromManifest(t *testing.T) {
	dir, im := ingestTo(t, "-generate", "road:side=30,seed=4", "-hierarchy", "on", "-hierarchy-tables=false")
	f, err := chfile.Open(filepath.Join(dir, output.HierarchyName), 1)
	if err != nil {
		t.Fatal(err)
	}
	counted := f.Hierarchy.Shortcuts()
	if counted == 0 || im.Hierarchy.Shortcuts != counted {
		t.Fatalf("the manifest records %d shortcuts, the file holds %d", im.Hierarchy.Shortcuts, counted)
	}
	reported := func() int {
		m := computeCells(t, dir, "0,5", "1,450", "-algorithm", "ch")
		usedStored(t, m)
		return m.RunFacts[FactStoredHierarchy].(StoredHierarchyFacts).Shortcuts
	}
	if got := reported(); got != counted {
		t.Errorf("the run reports %d shortcuts, the manifest %d", got, counted)
	}
	// A recorded count is what the run reports: one off shows it is read,
	// not counted.
	rewriteIngestManifest(t, dir, func(m *output.IngestManifest) { m.Hierarchy.Shortcuts = counted + 1 })
	if got := reported(); got != counted+1 {
		t.Errorf("the run reports %d shortcuts, the manifest records %d", got, counted+1)
	}
	rewriteIngestManifest(t, dir, func(m *output.IngestManifest) { m.Hierarchy.Shortcuts = 0 })
	if got := reported(); got != counted {
		t.Errorf("without a recorded count the run reports %d shortcuts, the file holds %d", got, counted)
	}
}

// rewriteIngestManifest changes the ingest manifest of dir by edit.
func rewriteIngestManifest(t *testing.T, dir string, edit func(*output.IngestManifest)) {
	t.Helper()
	m := readIngestManifest(t, dir)
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, output.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
