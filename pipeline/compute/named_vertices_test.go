package compute

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// planarX shifts the x coordinates of namedGraph beyond a longitude's
// range, so that they read as planar integers, as written.
const planarX = 200_000_000

// namedGraph writes a DIMACS graph of n vertices with coordinates (original
// id k+1, x = planarX + 7k, y = -3k) and random arcs, some vertices
// unreachable from others, and returns the .gr and .co files.
func namedGraph(t *testing.T, n int) (gr, co string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 9))
	var arcs []string
	for u := range n {
		for range 1 + rng.IntN(3) {
			arcs = append(arcs, fmt.Sprintf("a %d %d %d\n", u+1, rng.IntN(n)+1, 1+rng.IntN(100)))
		}
	}
	var g, c strings.Builder
	fmt.Fprintf(&g, "p sp %d %d\n", n, len(arcs))
	g.WriteString(strings.Join(arcs, ""))
	fmt.Fprintf(&c, "p aux sp co %d\n", n)
	for k := range n {
		fmt.Fprintf(&c, "v %d %d %d\n", k+1, planarX+7*k, -3*k)
	}
	return stagetest.WriteFile(t, "named.gr", g.String()), stagetest.WriteFile(t, "named.co", c.String())
}

// outputIDs returns every vertex id a compute output's distances, paths and
// summary hold, with the run's targets (a wide row's list places), read
// back from the files.
func outputIDs(t *testing.T, out string, targets []int32) map[int32]bool {
	t.Helper()
	ids := map[int32]bool{}
	for _, v := range targets {
		ids[v] = true
	}
	dir := filepath.Join(out, output.DistancesDir)
	if _, err := os.Stat(dir); err == nil {
		tbl, _ := readParquet(t, partFiles(t, dir)[0])
		switch {
		case column(t, tbl, resultfiles.ColTarget) != nil: // a pair list's
			rows, _ := readPairTable(t, dir)
			for _, r := range rows {
				ids[int32(r.Source)], ids[int32(r.Target)] = true, true
				if r.Parent != int64(paths.NoParent) {
					ids[int32(r.Parent)] = true
				}
			}
		case column(t, tbl, resultfiles.ColVertex) != nil:
			rows, _, _ := readLong(t, dir)
			for _, r := range rows {
				ids[r.Source], ids[r.Vertex] = true, true
				if r.Parent != paths.NoParent {
					ids[r.Parent] = true
				}
			}
		default:
			rows, _ := readWide(t, dir)
			for _, r := range rows {
				ids[r.Source] = true
				for _, p := range r.Parent {
					if p != paths.NoParent {
						ids[p] = true
					}
				}
			}
		}
	}
	if _, err := os.Stat(filepath.Join(out, output.PathsName+".parquet")); err == nil {
		rows, _, err := resultfiles.ReadPaths(filepath.Join(out, output.PathsName+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			ids[r.Source], ids[r.Target] = true, true
			for _, v := range r.Vertices {
				ids[v] = true
			}
		}
	}
	if _, err := os.Stat(filepath.Join(out, output.SummaryName+".parquet")); err == nil {
		rows, _, err := resultfiles.ReadSummary(filepath.Join(out, output.SummaryName+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			ids[r.Source] = true
		}
	}
	return ids
}

// TestComputeVerticesHoldEveryIDTheOutputsName checks the rule of the
// vertices table across layouts: a run whose rows name every vertex keeps
// the whole table; any other holds exactly the ids that some column of
// distances, paths or summary holds (and the run's targets), in id order,
// each row as the whole table has it, so every join through it is
// complete.
func TestComputeVerticesHoldEveryIDTheOutputsName(t *testing.T) {
	const n = 300
	gr, co := namedGraph(t, n)
	pairs := writePairsCSV(t, [][2]int64{{4, 200}, {4, 17}, {90, 3}, {12, 299}, {90, 3}})
	for _, tc := range []struct {
		name    string
		args    []string
		targets []int32 // the places of a wide row's lists
		whole   bool    // the table holds every vertex
	}{
		{"long, every vertex", []string{"-sources", "0,5"}, nil, true},
		{"long, targets", []string{"-sources", "0-9", "-targets", "250-259,3"}, nil, false},
		{"wide, targets", []string{"-sources", "7,1", "-targets", "100-110", "-layout", "wide"}, seq(111)[100:], false},
		{"long, targets, no parents", []string{"-sources", "0-9", "-targets", "250-259", "-parents=false"}, nil, false},
		{"pair list", []string{"-pairs", pairs}, nil, false},
		{"cutoff, sparse rows", []string{"-sources", "0-3", "-max-distance", "120"}, nil, false},
		{"cutoff with paths, whole rows", []string{"-sources", "0-3", "-max-distance", "120", "-paths", "0:150,2:299"}, nil, false},
		{"cutoff, wide", []string{"-sources", "0-3", "-max-distance", "120", "-layout", "wide"}, nil, true},
		{"targets and paths", []string{"-sources", "0,1", "-targets", "40", "-paths", "0:299,1:150", "-summary"}, nil, false},
		{"summary only", []string{"-sources", "20-29", "-summary", "-distances=false"}, nil, false},
		{"summary and paths only", []string{"-sources", "20-29", "-summary", "-distances=false", "-paths", "20:200"}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			cfg := loadCompute(t, "", append([]string{"-input", gr, "-coordinates", co, "-backend", "cpu", "-out", out}, tc.args...)...)
			res := runCompute(t, cfg)
			named := outputIDs(t, out, tc.targets)
			ids, orig, x, y := readVerticesTable(t, filepath.Join(out, output.VerticesName+".parquet"))
			for i, v := range ids {
				if i > 0 && v <= ids[i-1] {
					t.Fatalf("vertices: id %d after %d: not in id order", v, ids[i-1])
				}
				if orig[i] != int64(v)+1 || x[i] != planarX+7*v || y[i] != -3*v {
					t.Fatalf("vertices: row %d is (%d, %d, %d, %d), want (%d, %d, %d, %d)", i, v, orig[i], x[i], y[i], v, v+1, planarX+7*v, -3*v)
				}
			}
			if tc.whole {
				if !slices.Equal(ids, seq(n)) {
					t.Fatalf("vertices holds %d ids, want all %d", len(ids), n)
				}
				return
			}
			want := make([]int32, 0, len(named))
			for v := range named {
				want = append(want, v)
			}
			slices.Sort(want)
			if !slices.Equal(ids, want) {
				t.Fatalf("vertices holds %d ids %v,\nthe outputs name %d: %v", len(ids), ids, len(want), want)
			}
			if len(ids) >= n {
				t.Fatalf("vertices holds all %d ids: the run names fewer", n)
			}
			for _, f := range res.Manifest.Files {
				if f.Path == output.VerticesName+".parquet" && f.Rows != int64(len(ids)) {
					t.Errorf("the manifest lists %d vertex rows, the table holds %d", f.Rows, len(ids))
				}
			}
		})
	}
}

// TestDuckDBJoinsOutputsToTheirNamedVertices runs the README's joins on
// outputs whose vertices table holds only the vertices they name: every
// source, vertex and parent of the distances, and every source of the
// summary, finds its row.
func TestDuckDBJoinsOutputsToTheirNamedVertices(t *testing.T) {
	duckdbtest.Require(t)
	gr, co := namedGraph(t, 300)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"targets", []string{"-sources", "0-19", "-targets", "200-239"}},
		{"cutoff", []string{"-sources", "0-3", "-max-distance", "150"}},
		{"summary only", []string{"-sources", "0-99", "-distances=false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			res := runCompute(t, loadCompute(t, "", append([]string{"-input", gr, "-coordinates", co, "-backend", "cpu",
				"-out", out, "-summary"}, tc.args...)...))
			vertices := "read_parquet(" + duckdbtest.SQLString(filepath.Join(out, output.VerticesName+".parquet")) + ")"
			summary := "read_parquet(" + duckdbtest.SQLString(filepath.Join(out, output.SummaryName+".parquet")) + ")"
			queries := []string{
				"SELECT count(*), count(v.id) FROM " + summary + " AS s LEFT JOIN " + vertices + " AS v ON v.id = s.source",
				"SELECT count(*) FROM " + vertices,
			}
			if res.Manifest.Sources == 0 {
				t.Fatal("no sources")
			}
			hasDistances := listsDistances(res.Manifest.Files)
			if hasDistances {
				d := "read_parquet(" + distancesGlob(out) + ")"
				queries = append(queries,
					"SELECT count(*), count(src.id), count(dst.id), count(d.parent), count(par.id) FROM "+d+" AS d"+
						" LEFT JOIN "+vertices+" AS src ON src.id = d.source"+
						" LEFT JOIN "+vertices+" AS dst ON dst.id = d.vertex"+
						" LEFT JOIN "+vertices+" AS par ON par.id = d.parent")
			}
			got := duckdbtest.Query(t, queries...)
			row := got[0].Rows[0]
			if duckdbtest.Text(row[0]) != duckdbtest.Text(row[1]) || duckdbtest.Text(row[0]) == "0" {
				t.Errorf("summary: %v sources, %v joined to vertices", row[0], row[1])
			}
			if n := duckdbtest.Text(got[1].Rows[0][0]); n == "300" {
				t.Errorf("vertices holds every vertex (%s): the run names fewer", n)
			}
			if !hasDistances {
				if tc.name != "summary only" {
					t.Fatal("no distances table")
				}
				return
			}
			row = got[2].Rows[0]
			if duckdbtest.Text(row[0]) == "0" || duckdbtest.Text(row[0]) != duckdbtest.Text(row[1]) || duckdbtest.Text(row[0]) != duckdbtest.Text(row[2]) ||
				duckdbtest.Text(row[3]) != duckdbtest.Text(row[4]) {
				t.Errorf("distances: rows, joined sources, joined vertices, parents, joined parents = %v", row)
			}
		})
	}
}
