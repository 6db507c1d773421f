package compute

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// TestComputeFromIngestOutput: computing from an ingest output gives the
// rows of computing from the raw file, and records the raw file as the
// input.
func TestComputeFromIngestOutput(t *testing.T) {
	tiny := stagetest.WriteFile(t, "tiny.gr", "p sp 6 8\na 1 2 7\na 2 3 1\na 3 4 2\na 4 1 9\na 1 3 3\na 3 5 4\na 5 3 1\na 2 5 8\n")
	for _, tc := range []struct {
		name, file string
		ingest     []string // input flags of both stages when reading the raw file
		sources    string
	}{
		{"dimacs", "", nil, "all"},
		{"rome99", "rome99.gr", nil, "0,1700,3352"},
		// SNAP ids are renumbered and the weights hashed at ingest: a
		// compute from the tables needs neither flag again.
		{"gnutella undirected hashed", "p2p-Gnutella04.txt", []string{"-weights", "hash", "-directed=false"}, "0,5000,10875"},
	} {
		for _, format := range []string{"arrow", "parquet"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				raw := tiny
				if tc.file != "" {
					raw = mirrorFile(t, tc.file)
				}
				dir := t.TempDir()
				graphDir := filepath.Join(dir, "graph")
				ingestArgs := append([]string{"-input", raw, "-out", graphDir, "-output-format", format}, tc.ingest...)
				if _, err := ingest.Run(context.Background(), loadIngest(t, ingestArgs...), stagetest.QuietLog, io.Discard); err != nil {
					t.Fatal(err)
				}
				common := []string{"-backend", "cpu", "-algorithm", "dijkstra", "-sources", tc.sources}
				fromRaw := runCompute(t, loadCompute(t, "", append(append([]string{"-input", raw, "-out", filepath.Join(dir, "raw")}, tc.ingest...), common...)...))
				fromTables := runCompute(t, loadCompute(t, "", append([]string{"-input", graphDir, "-out", filepath.Join(dir, "tables")}, common...)...))

				// The edges file itself, with the vertices table beside it, is
				// an ingest output too.
				runCompute(t, loadCompute(t, "", append([]string{"-input", filepath.Join(graphDir, "edges."+format), "-out", filepath.Join(dir, "edges")}, common...)...))

				a, metaA, _ := readLong(t, filepath.Join(dir, "raw", output.DistancesDir))
				b, metaB, _ := readLong(t, filepath.Join(dir, "tables", output.DistancesDir))
				c, _, _ := readLong(t, filepath.Join(dir, "edges", output.DistancesDir))
				if len(a) == 0 || !slices.Equal(a, b) || !slices.Equal(a, c) {
					t.Fatalf("%d rows from the raw file, %d from the ingest output, %d from its edges file, or they differ", len(a), len(b), len(c))
				}
				for _, k := range []string{input.MetaInputFile, input.MetaInputSHA256, input.MetaInputFormat, input.MetaN, input.MetaM, input.MetaDirected, input.MetaWeighting} {
					if metaA[k] != metaB[k] {
						t.Errorf("%s: %q from the raw file, %q from the ingest output", k, metaA[k], metaB[k])
					}
				}
				if fromRaw.Manifest.InputSHA256 != fromTables.Manifest.InputSHA256 || fromRaw.Manifest.M != fromTables.Manifest.M {
					t.Errorf("manifests: input %s/%d arcs from the raw file, %s/%d from the ingest output",
						fromRaw.Manifest.InputSHA256, fromRaw.Manifest.M, fromTables.Manifest.InputSHA256, fromTables.Manifest.M)
				}
				g := graph.BuildCSR(loadInput(t, input.Spec{Path: graphDir}))
				sources, _ := DenseNames(g.N).Sources(KeySources, strings.Split(tc.sources, ","))
				ref := refDists(g, sources)
				compareLong(t, g, ref, b, expectLong(ref, sources, nil, g.N, results.NoCutoff))
			})
		}
	}
}

// reweighted returns a random graph with negative arcs but no negative
// cycle: w'(u, v) = w(u, v) + p(u) - p(v) for random potentials p, under
// which every cycle keeps its non-negative length.
func reweighted(t *testing.T) *graph.EdgeList {
	t.Helper()
	e := mustGenerate(t, "erdos-renyi:n=50,p=0.08,lo=1,hi=40,seed=21")
	rng := rand.New(rand.NewPCG(4, 5))
	p := make([]int32, e.N)
	for i := range p {
		p[i] = rng.Int32N(30)
	}
	out := graph.NewEdgeList(e.N, e.M())
	negative := false
	for i := range e.M() {
		u, v := e.Src[i], e.Dst[i]
		w := e.Weight[i] + p[u] - p[v]
		negative = negative || w < 0
		out.Add(u, v, w)
	}
	if !negative {
		t.Fatal("the reweighted graph has no negative arc")
	}
	return out
}

// TestComputeEveryCPUAlgorithmAgrees runs every CPU algorithm on the same
// graphs: distances equal the reference's and parents close every
// distance with an arc.
func TestComputeEveryCPUAlgorithmAgrees(t *testing.T) {
	algorithms := []string{"dijkstra", "bellman-ford", "floyd-warshall", "johnson", "auto", "sssp"}
	for _, tc := range []struct {
		name       string
		input      []string
		sources    string
		algorithms []string
	}{
		{"random", []string{"-generate", "erdos-renyi:n=70,p=0.05,lo=0,hi=90,seed=5"}, "all", algorithms},
		{"negative arcs", []string{"-input", writeGR(t, "negative.gr", reweighted(t))}, "all",
			[]string{"bellman-ford", "floyd-warshall", "johnson", "auto", "sssp"}},
		// Floyd-Warshall computes all of rome99's 3353^2 pairs (seconds;
		// skipped with -short) and writes the rows of the sources.
		{"rome99", nil, "0,1,977,2500,3352", algorithms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gr := tc.input
			if gr == nil {
				gr = []string{"-input", mirrorFile(t, "rome99.gr")}
			}
			var e *graph.EdgeList
			if gr[0] == "-generate" {
				e = mustGenerate(t, gr[1])
			} else {
				e = loadInput(t, input.Spec{Path: gr[1]})
			}
			g := graph.BuildCSR(e)
			sources, _ := DenseNames(g.N).Sources(KeySources, strings.Split(tc.sources, ","))
			ref := refDists(g, sources)
			for _, alg := range tc.algorithms {
				t.Run(alg, func(t *testing.T) {
					if alg == "floyd-warshall" && g.N > 1000 && testing.Short() {
						t.Skip("Floyd-Warshall on a large graph: skipped with -short")
					}
					out := filepath.Join(t.TempDir(), "out")
					res := runCompute(t, loadCompute(t, "", append(gr, "-backend", "cpu", "-algorithm", alg, "-sources", tc.sources, "-out", out)...))
					if alg != "auto" && alg != "sssp" && res.Manifest.Algorithm != alg {
						t.Errorf("ran %s", res.Manifest.Algorithm)
					}
					var got []int32
					_, _, err := resultfiles.ScanResults(filepath.Join(out, output.DistancesDir), func(tr *paths.Tree) error {
						got = append(got, tr.Source)
						if !slices.Equal(tr.Dist, ref[tr.Source]) {
							t.Errorf("source %d: distances differ from the reference", tr.Source)
						}
						if err := paths.CheckTree(g, tr); err != nil {
							return err
						}
						// CheckTree allows a cycle of zero-weight arcs in
						// the parents; every path must lead back to the
						// source.
						for v := range g.N {
							if tr.Reachable(v) && tr.To(v) == nil {
								t.Errorf("source %d: the parents of %d do not lead back to it", tr.Source, v)
								break
							}
						}
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, sources) {
						t.Fatalf("trees for %d sources, want %d in order", len(got), len(sources))
					}
				})
			}
		})
	}
}

// TestComputeSummaryTable checks the summary against the reference trees,
// including a source with no outgoing arc: reachable 1, null eccentricity
// and closeness. With targets and a cutoff it summarizes the cells written.
func TestComputeSummaryTable(t *testing.T) {
	e := mustGenerate(t, "erdos-renyi:n=40,p=0.1,lo=1,hi=30,seed=8")
	const isolated = 13
	cut := graph.NewEdgeList(e.N, e.M())
	for i := range e.M() {
		if e.Src[i] != isolated {
			cut.Add(e.Src[i], e.Dst[i], e.Weight[i])
		}
	}
	gr := writeGR(t, "cut.gr", cut)
	g := graph.BuildCSR(cut)
	ref := refDists(g, seq(g.N))
	for _, tc := range []struct {
		name    string
		args    []string
		targets []int32 // nil: every vertex
		cutoff  int64
	}{
		{"every vertex", nil, nil, results.NoCutoff},
		{"targets and cutoff", []string{"-targets", "0-19", "-max-distance", "40"}, seq(20), 40},
		{"wide", []string{"-layout", "wide", "-max-distance", "40"}, nil, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			res := runCompute(t, loadCompute(t, "", append([]string{"-input", gr, "-backend", "cpu", "-sources", "all", "-summary", "-out", out}, tc.args...)...))
			rows, _, err := resultfiles.ReadSummary(filepath.Join(out, output.SummaryName+".parquet"))
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != int(g.N) {
				t.Fatalf("%d summary rows for %d sources", len(rows), g.N)
			}
			targets := tc.targets
			if targets == nil {
				targets = seq(g.N)
			}
			for i, r := range rows {
				s := int32(i)
				want := resultfiles.SummaryRow{Source: s, Eccentricity: resultfiles.NoEccentricity}
				var sum int64
				for _, v := range targets {
					d := ref[s][v]
					if d == paths.Unreachable || (tc.cutoff != results.NoCutoff && d > tc.cutoff) {
						continue
					}
					want.Reachable++
					if v != s {
						want.Eccentricity = max(want.Eccentricity, d)
						sum += d
					}
				}
				want.Closeness = math.NaN()
				if k := float64(want.Reachable); want.Reachable > 1 && sum > 0 {
					want.Closeness = (k - 1) / float64(len(targets)-1) * (k - 1) / float64(sum)
				}
				if r.Source != s || r.Reachable != want.Reachable || r.Eccentricity != want.Eccentricity || !sameFloat(r.Closeness, want.Closeness) {
					t.Errorf("summary row %+v, want %+v", r, want)
				}
			}
			if isolatedRow := rows[isolated]; isolatedRow.Reachable != 1 {
				t.Errorf("vertex %d without outgoing arcs reaches %d", isolated, isolatedRow.Reachable)
			}
			// Null in the file, not a NaN or sentinel value.
			tbl, _ := readParquet(t, filepath.Join(out, output.SummaryName+".parquet"))
			for _, name := range []string{resultfiles.ColEccentricity, resultfiles.ColCloseness} {
				col := column(t, tbl, name)
				if len(col) != 1 || !col[0].IsNull(isolated) {
					t.Errorf("%s of source %d is not null", name, isolated)
				}
			}
			c := column(t, tbl, resultfiles.ColCloseness)[0].(*array.Float64)
			for i := range c.Len() {
				if c.IsValid(i) && math.IsNaN(c.Value(i)) {
					t.Errorf("closeness of source %d written as NaN, not null", i)
				}
			}
			if tc.targets == nil && tc.cutoff == results.NoCutoff && res.Manifest.Reachable[isolated] != 1 {
				t.Errorf("manifest reachable %v", res.Manifest.Reachable)
			}
		})
	}
}
