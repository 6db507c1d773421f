package compute

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// TestComputeCH runs compute.algorithm: ch end to end on the shape graph,
// whose unreachable pairs the hierarchy must keep unreachable: whole rows,
// targets and a cutoff give the reference distances and parents that
// close tight arcs, and the manifest names the algorithm.
func TestComputeCH(t *testing.T) {
	g, ref := shapeGraph(t)
	for _, tc := range []struct {
		name    string
		targets string
		cutoff  int64
		parents bool
	}{
		{"whole rows", "all", results.NoCutoff, true},
		{"targets", "59,7,0,33", results.NoCutoff, true},
		{"targets without parents", "59,7,0,33,2", results.NoCutoff, false},
		{"cutoff", "all", 60, true},
		{"targets and cutoff", "59,7,0,33,2", 60, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := shapeArgs(out, "-algorithm", "ch", "-sources", "5,2,30,0-1,3", "-targets", tc.targets)
			if tc.cutoff != results.NoCutoff {
				args = append(args, "-max-distance", "60")
			}
			if !tc.parents {
				args = append(args, "-parents=false")
			}
			res := runCompute(t, loadCompute(t, "", args...))
			if res.Manifest.Algorithm != backend.AlgorithmCH {
				t.Errorf("manifest algorithm %q", res.Manifest.Algorithm)
			}
			if f, ok := res.Manifest.RunFacts[hierarchy.FactKey].(hierarchy.BuildFacts); !ok || f.Rounds <= 0 {
				t.Errorf("run facts %v: no hierarchy build reported", res.Manifest.RunFacts)
			}
			sources, _ := DenseNames(shapeN).Sources(KeySources, []string{"5", "2", "30", "0-1", "3"})
			targets, _ := DenseNames(shapeN).Targets(KeyTargets, strings.Split(tc.targets, ","))
			rows, _, hasParents := readLong(t, filepath.Join(out, output.DistancesDir))
			if hasParents != tc.parents {
				t.Fatalf("parent column %t, want %t", hasParents, tc.parents)
			}
			want := expectLong(ref, sources, targets, shapeN, tc.cutoff)
			if tc.parents {
				compareLong(t, g, ref, rows, want)
				return
			}
			compareDists(t, rows, want)
		})
	}
}

// TestComputeCHRefusesNegativeWeights: a contraction hierarchy needs
// non-negative weights, and the error says so as a configuration error
// of compute.algorithm.
func TestComputeCHRefusesNegativeWeights(t *testing.T) {
	negative := stagetest.WriteFile(t, "neg.gr", "p sp 3 3\na 1 2 4\na 2 3 -2\na 1 3 5\n")
	cfg := loadCompute(t, "", "-input", negative, "-algorithm", "ch", "-out", filepath.Join(t.TempDir(), "out"))
	_, err := Run(context.Background(), cfg, stagetest.QuietLog, io.Discard)
	if stageerr.KindOf(err) != stageerr.Config || !strings.Contains(err.Error(), "non-negative") || !strings.Contains(err.Error(), KeyAlgorithm) {
		t.Fatalf("err = %v (kind %v), want a configuration error of %s about non-negative weights", err, stageerr.KindOf(err), KeyAlgorithm)
	}
	// Dijkstra needs non-negative weights too: the error must point to
	// the algorithms that take negative ones.
	if !strings.Contains(err.Error(), "bellman-ford") || strings.Contains(err.Error(), "dijkstra") {
		t.Errorf("err = %v: want it to suggest bellman-ford (and not dijkstra)", err)
	}
}

// TestComputeCHPairList runs a pair list (per-source targets: a source
// listed again, a pair twice, a target equal to its source, unreachable
// targets) through ch, with parents from point queries and distances from
// bucket tables, with and without a cutoff.
func TestComputeCHPairList(t *testing.T) {
	g, ref := shapeGraph(t)
	pairs := shapePairs(t, ref)
	file := writePairsCSV(t, pairs)
	for _, parents := range []bool{true, false} {
		for _, cutoff := range []int64{results.NoCutoff, 0, 60} {
			t.Run(fmt.Sprintf("parents=%t/cutoff=%d", parents, cutoff), func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out")
				runCompute(t, loadCompute(t, "", shapeArgs(out, "-algorithm", "ch", "-pairs", file,
					"-max-distance", strconv.FormatInt(cutoff, 10), "-parents="+strconv.FormatBool(parents))...))
				rows, schema := readPairTable(t, filepath.Join(out, output.DistancesDir))
				if hasParents := schema.HasField("parent"); hasParents != parents {
					t.Fatalf("parent column %t, want %t", hasParents, parents)
				}
				comparePairTable(t, g, ref, rows, pairs, cutoff, parents, denseIDs)
			})
		}
	}
}

// TestComputeCHPathsAndSummary: with compute.paths the pipeline asks for
// whole rows (PHAST and parents in the original graph), narrows them to
// the targets itself, and the paths and summaries equal Dijkstra's: each
// path is a walk over arcs of the graph whose weights add up to its cost.
func TestComputeCHPathsAndSummary(t *testing.T) {
	g, ref := shapeGraph(t)
	dir := t.TempDir()
	outs := map[string]string{}
	for _, alg := range []string{"dijkstra", "ch"} {
		outs[alg] = filepath.Join(dir, alg)
		runCompute(t, loadCompute(t, "", shapeArgs(outs[alg], "-algorithm", alg, "-sources", "0-20",
			"-targets", "9,1,40-45,59", "-paths", "0:59,7:3,5:5", "-summary")...))
	}
	chRows, _, _ := readLong(t, filepath.Join(outs["ch"], output.DistancesDir))
	dijRows, _, _ := readLong(t, filepath.Join(outs["dijkstra"], output.DistancesDir))
	if len(chRows) == 0 || !slices.Equal(distancesOnly(chRows), distancesOnly(dijRows)) {
		t.Fatalf("ch wrote %d rows, dijkstra %d, or their distances differ", len(chRows), len(dijRows))
	}
	for i, r := range chRows {
		if err := checkParent(g, ref[r.Source], r.Source, r.Vertex, r.Parent); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
	}
	chPaths, _, err := resultfiles.ReadPaths(filepath.Join(outs["ch"], output.PathsName+".parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(chPaths) != 3 {
		t.Fatalf("%d paths, want 3", len(chPaths))
	}
	for _, p := range chPaths {
		if want := ref[p.Source][p.Target]; p.Cost != want {
			t.Errorf("path %d -> %d costs %d, want %d", p.Source, p.Target, p.Cost, want)
		}
		if p.Cost == paths.Unreachable {
			continue
		}
		cost := int64(0)
		for k := 1; k < len(p.Vertices); k++ {
			u, v := p.Vertices[k-1], p.Vertices[k]
			best := int64(-1)
			for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
				if w := int64(g.Weights[a]); g.Targets[a] == v && (best < 0 || w < best) {
					best = w
				}
			}
			if best < 0 {
				t.Fatalf("path %d -> %d uses %d -> %d, not an arc", p.Source, p.Target, u, v)
			}
			cost += best
		}
		if len(p.Vertices) == 0 || p.Vertices[0] != p.Source || p.Vertices[len(p.Vertices)-1] != p.Target || cost != p.Cost {
			t.Errorf("path %d -> %d: %v adds up to %d, cost %d", p.Source, p.Target, p.Vertices, cost, p.Cost)
		}
	}
	chSummary, _, err := resultfiles.ReadSummary(filepath.Join(outs["ch"], output.SummaryName+".parquet"))
	if err != nil {
		t.Fatal(err)
	}
	dijSummary, _, err := resultfiles.ReadSummary(filepath.Join(outs["dijkstra"], output.SummaryName+".parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(chSummary) != 21 || !slices.EqualFunc(chSummary, dijSummary, func(a, b resultfiles.SummaryRow) bool {
		return a.Source == b.Source && a.Reachable == b.Reachable && a.Eccentricity == b.Eccentricity && sameFloat(a.Closeness, b.Closeness)
	}) {
		t.Errorf("summaries differ:\nch       %+v\ndijkstra %+v", chSummary, dijSummary)
	}
}
