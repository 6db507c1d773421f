package pipeline

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// These tests read compute outputs with DuckDB, as analysts do, and check
// what it sees against the reference distances. They skip without DuckDB
// (see internal/duckdbtest) unless PATHFLOW_REQUIRE_DUCKDB=1.

// distancesGlob is the read_parquet argument of every part of a run.
func distancesGlob(out string) string {
	return duckdbtest.SQLString(filepath.Join(out, DistancesDir, "*.parquet"))
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
		{"targets", backend.NoCutoff},
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
			if tc.cutoff == backend.NoCutoff && nulls == 0 {
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

func TestDuckDBReadsWideOutputs(t *testing.T) {
	duckdbtest.Require(t)
	_, ref := shapeGraph(t)
	out := filepath.Join(t.TempDir(), "out")
	targets := []int32{30, 2, 59, 0, 10, 11, 12}
	runCompute(t, loadCompute(t, "output:\n  part_rows: 100\n", shapeArgs(out, "-sources", "all", "-targets", "30,2,59,0,10-12", "-layout", "wide", "-max-distance", "90")...))
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
// written there, on the demo config's output.
func TestDuckDBRunsTheREADMEQuery(t *testing.T) {
	duckdbtest.Require(t)
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)DuckDB:\\s*```sql\\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no ```sql block after \"DuckDB:\"")
	}
	const demoOut = "out/demo/"
	query := string(m[1])
	if !strings.Contains(query, demoOut) {
		t.Fatalf("the README query reads no %s:\n%s", demoOut, query)
	}
	out := filepath.Join(t.TempDir(), "demo")
	cfg := loadCompute(t, "", "-config=../configs/demo.yaml", "-out", out, "-backend", "cpu")
	runCompute(t, cfg)
	query = strings.ReplaceAll(query, demoOut, filepath.ToSlash(out)+"/")
	res := duckdbtest.Query(t, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(query), ";")))[0]

	g := graph.BuildCSR(mustGenerate(t, cfg.Input.Generate))
	sources, _ := ParseSources(KeySources, cfg.Sources, g.N)
	if len(res.Rows) != len(sources) || !slices.Equal(res.Columns, []string{"source", "reachable", "eccentricity"}) {
		t.Fatalf("the README query returns columns %v and %d rows, want 3 columns and %d rows", res.Columns, len(res.Rows), len(sources))
	}
	for i, s := range sources {
		tree := refTree(g, s)
		var ecc int64
		for _, d := range tree.Dist {
			if d != paths.Unreachable {
				ecc = max(ecc, d)
			}
		}
		want := []any{int64(s), int64(tree.ReachableCount()), ecc}
		if !slices.Equal(res.Rows[i], want) {
			t.Errorf("row %d: %v, want %v", i, res.Rows[i], want)
		}
	}
}
