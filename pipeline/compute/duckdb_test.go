package compute

import (
	"cmp"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// These tests read compute outputs with DuckDB, as analysts do, and check
// what it sees against the reference distances. They skip without DuckDB
// (see internal/duckdbtest) unless REQUIRE_DUCKDB=1.

// distancesGlob is the read_parquet argument of every part of a run.
func distancesGlob(out string) string {
	return duckdbtest.SQLString(filepath.Join(out, output.DistancesDir, "*.parquet"))
}

// inPartOrder reads the columns of every part in file and row order.
func inPartOrder(out, columns string) string {
	return "SELECT " + columns + " FROM read_parquet(" + distancesGlob(out) +
		", filename = true, file_row_number = true) ORDER BY filename, file_row_number"
}

func TestDuckDBReadsLongOutputs(t *testing.T) {
	duckdbtest.Require(t)
	g, ref := shapeGraph(t)
	sources, targets := seq(shapeN), []int32{59, 7, 0, 1, 2, 3, 4, 5, 33}
	for _, tc := range []struct {
		name   string
		cutoff int64
	}{
		{"targets", results.NoCutoff},
		{"targets and cutoff", 70},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := shapeArgs(out, "-sources", "all", "-targets", "59,7,0-5,33", "-max-distance", strconv.FormatInt(tc.cutoff, 10))
			res := runCompute(t, loadCompute(t, "output:\n  part_rows: 128\n  batch_rows: 50\n", args...))
			if len(res.Manifest.Files) < 3 {
				t.Fatalf("%d files: the test wants several parts", len(res.Manifest.Files))
			}
			want := expectLong(ref, sources, targets, shapeN, tc.cutoff)
			var sum, nulls, parentNulls int64
			for _, r := range want {
				switch {
				case r.Dist == paths.Unreachable:
					nulls++
					parentNulls++
				case r.Source == r.Vertex:
					sum += r.Dist
					parentNulls++
				default:
					sum += r.Dist
				}
			}
			if tc.cutoff == results.NoCutoff && nulls == 0 {
				t.Fatal("no unreachable cell: the test does not see nulls")
			}
			res2 := duckdbtest.Query(t,
				"SELECT count(*), count(*) FILTER (WHERE distance IS NULL), sum(distance), count(*) FILTER (WHERE parent IS NULL) FROM read_parquet("+distancesGlob(out)+")",
				inPartOrder(out, "source, vertex, distance, parent"),
				"SELECT typeof(source), typeof(vertex), typeof(distance), typeof(parent) FROM read_parquet("+distancesGlob(out)+") LIMIT 1",
			)
			counts := res2[0].Rows[0]
			if got := []string{duckdbtest.Text(counts[0]), duckdbtest.Text(counts[1]), duckdbtest.Text(counts[2]), duckdbtest.Text(counts[3])}; !slices.Equal(got, []string{
				strconv.Itoa(len(want)), strconv.FormatInt(nulls, 10), strconv.FormatInt(sum, 10), strconv.FormatInt(parentNulls, 10)}) {
				t.Errorf("DuckDB counts rows, null distances, the distance sum and null parents as %v; want %d, %d, %d, %d",
					got, len(want), nulls, sum, parentNulls)
			}
			rows := res2[1].Rows
			if len(rows) != len(want) {
				t.Fatalf("DuckDB reads %d rows, want %d", len(rows), len(want))
			}
			for i, w := range want {
				r := rows[i]
				if r[0] != int64(w.Source) || r[1] != int64(w.Vertex) || r[2] != distValue(w.Dist) {
					t.Fatalf("row %d: DuckDB reads %v, want (%d, %d, %s)", i, r, w.Source, w.Vertex, distText(w.Dist))
				}
				p := paths.NoParent
				if r[3] != nil {
					p = int32(r[3].(int64))
				}
				if err := checkParent(g, ref[w.Source], w.Source, w.Vertex, p); err != nil {
					t.Fatalf("row %d: %v", i, err)
				}
			}
			if types := res2[2].Rows[0]; !slices.Equal(types, []any{"INTEGER", "INTEGER", "BIGINT", "INTEGER"}) {
				t.Errorf("DuckDB types %v", types)
			}
		})
	}
}

// distValue is a distance as DuckDB returns it: nil for null.
func distValue(d int64) any {
	if d == paths.Unreachable {
		return nil
	}
	return d
}

// computeWide writes the wide output the readers are checked on: every
// source of the shape graph, distances and parents to targets (in that
// order), capped at 90 so that some cells are null.
func computeWide(t *testing.T) (out string, targets []int32) {
	t.Helper()
	out = filepath.Join(t.TempDir(), "out")
	runCompute(t, loadCompute(t, "output:\n  part_rows: 100\n", shapeArgs(out, "-sources", "all", "-targets", "30,2,59,0,10-12", "-layout", "wide", "-max-distance", "90")...))
	return out, []int32{30, 2, 59, 0, 10, 11, 12}
}

func TestDuckDBReadsWideOutputs(t *testing.T) {
	duckdbtest.Require(t)
	_, ref := shapeGraph(t)
	out, targets := computeWide(t)
	var sum, nulls, cells int64
	wantLists := make([][]any, shapeN)
	for s := range int32(shapeN) {
		for _, v := range targets {
			d := ref[s][v]
			if d > 90 {
				d = paths.Unreachable
			}
			if d == paths.Unreachable {
				nulls++
			} else {
				sum += d
			}
			cells++
			wantLists[s] = append(wantLists[s], distValue(d))
		}
	}
	res := duckdbtest.Query(t,
		"SELECT count(*), min(len(distance)), max(len(distance)) FROM read_parquet("+distancesGlob(out)+")",
		"SELECT count(*), count(*) FILTER (WHERE d IS NULL), sum(d) FROM (SELECT unnest(distance) AS d FROM read_parquet("+distancesGlob(out)+"))",
		inPartOrder(out, "source, distance"),
	)
	if got := res[0].Rows[0]; !slices.Equal(got, []any{int64(shapeN), int64(len(targets)), int64(len(targets))}) {
		t.Errorf("DuckDB reads %v rows, min and max list lengths; want %d rows of %d", got, shapeN, len(targets))
	}
	if got := res[1].Rows[0]; duckdbtest.Text(got[0]) != strconv.FormatInt(cells, 10) ||
		duckdbtest.Text(got[1]) != strconv.FormatInt(nulls, 10) || duckdbtest.Text(got[2]) != strconv.FormatInt(sum, 10) {
		t.Errorf("DuckDB counts cells, nulls and the sum as %v; want %d, %d, %d", got, cells, nulls, sum)
	}
	if nulls == 0 || nulls == cells {
		t.Errorf("%d null cells of %d: the test wants some", nulls, cells)
	}
	for i, r := range res[2].Rows {
		if r[0] != int64(i) || duckdbtest.Text(r[1]) != duckdbtest.Text(wantLists[i]) {
			t.Fatalf("row %d: DuckDB reads %v, want source %d with %v", i, r, i, wantLists[i])
		}
	}
}

// TestDuckDBRunsTheREADMEQuery runs the README's DuckDB snippet, as
// written there, on the demo config's output and on a DIMACS output, whose
// original ids differ from the dense ones, and checks what it returns
// against the reference distances.
func TestDuckDBRunsTheREADMEQuery(t *testing.T) {
	duckdbtest.Require(t)
	query := strings.TrimSuffix(strings.TrimSpace(readmeSnippet(t, "query", "sql", "DuckDB:", "DuckDB:")), ";")
	runREADMEExamples(t, func(t *testing.T, _, out string, g *input.LoadedGraph) {
		res := duckdbtest.Query(t, strings.ReplaceAll(query, readmeOut, filepath.ToSlash(out)+"/"))[0]
		if !slices.Equal(res.Columns, []string{"source_id", "vertex_id", "x", "y", "distance"}) {
			t.Fatalf("the README query returns columns %v", res.Columns)
		}
		want := farthestFromZero(g, 5)
		if len(res.Rows) != len(want) {
			t.Fatalf("the README query returns %d rows, want %d", len(res.Rows), len(want))
		}
		for i := range want {
			if !slices.Equal(res.Rows[i], want[i]) {
				t.Errorf("row %d: %v, want %v", i, res.Rows[i], want[i])
			}
		}
	})
}

// readmeOut is the output folder the README's snippets read.
const readmeOut = "out/demo/"

// readmeSnippet returns the README's ```lang block after the heading that
// headingRE matches (heading is how messages show it), and checks that it
// reads the vertices table of readmeOut; noun names the block in
// messages.
func readmeSnippet(t *testing.T, noun, lang, heading, headingRE string) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)" + headingRE + "\\s*```" + lang + "\\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatalf("README.md has no ```%s block after %q", lang, heading)
	}
	snippet := string(m[1])
	if !strings.Contains(snippet, readmeOut) || !strings.Contains(snippet, output.VerticesName) {
		t.Fatalf("the README %s reads no %s or no vertices table:\n%s", noun, readmeOut, snippet)
	}
	return snippet
}

// runREADMEExamples computes, in subtests, the outputs that the README's
// snippets are checked on: the demo config's, and a DIMACS graph's whose
// original ids differ from the dense ones. Each goes to readmeOut under a
// fresh folder dir, where a snippet run in dir finds it; check gets dir,
// the output folder and the graph.
func runREADMEExamples(t *testing.T, check func(t *testing.T, dir, out string, g *input.LoadedGraph)) {
	t.Helper()
	// x beyond a longitude's range: planar x, y, as the README's query
	// reads them (coordinates in degrees would be lon and lat).
	co := stagetest.WriteFile(t, "five.co", "p aux sp co 5\nv 1 200000010 -10\nv 2 200000020 -20\nv 3 200000030 -30\nv 4 200000040 -40\nv 5 200000050 -50\n")
	gr := stagetest.WriteFile(t, "five.gr", "p sp 5 6\na 1 2 4\na 2 3 1\na 1 3 7\na 3 4 2\na 4 2 1\na 5 1 1\n")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"demo", []string{"-config=../../configs/demo.yaml"}},
		{"DIMACS", []string{"-input", gr, "-coordinates", co, "-sources", "0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, filepath.FromSlash(readmeOut))
			cfg := loadCompute(t, "", append(tc.args, "-out", out, "-backend", "cpu")...)
			runCompute(t, cfg)
			g, err := input.LoadGraph(context.Background(), cfg.Input, stagetest.QuietLog, io.Discard, true)
			if err != nil {
				t.Fatal(err)
			}
			check(t, dir, out, g)
		})
	}
}

// farthestFromZero is what the README query returns, computed from the
// reference: the k vertices farthest from dense vertex 0 (unreachable ones
// last, ties by original id) as source_id, vertex_id, x, y, distance.
func farthestFromZero(g *input.LoadedGraph, k int) [][]any {
	dist := refTree(graph.BuildCSR(g.Edges), 0).Dist
	ids := input.NewVertexIDs(g.Edges.N, g.Vertices)
	order := seq(g.Edges.N)
	key := func(v int32) int64 {
		if dist[v] == paths.Unreachable {
			return -1 << 62
		}
		return dist[v]
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		if key(a) != key(b) {
			return cmp.Compare(key(b), key(a))
		}
		return cmp.Compare(ids.Original(a), ids.Original(b))
	})
	var rows [][]any
	for _, v := range order[:min(k, len(order))] {
		rows = append(rows, []any{ids.Original(0), ids.Original(v), int64(g.Vertices.X[v]), int64(g.Vertices.Y[v]), distValue(dist[v])})
	}
	return rows
}
