package compute

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/pathflow/pathflow/formats/pairlist/pairlisttest"
	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// writePairsCSV writes pairs as a CSV pair list with a header.
func writePairsCSV(t *testing.T, pairs [][2]int64) string {
	return pairlisttest.WriteCSV(t, filepath.Join(t.TempDir(), "pairs.csv"), pairs)
}

// writePairsParquet writes pairs as a Parquet pair list: int64 columns
// target and source (in that order) beside an ignored one.
func writePairsParquet(t *testing.T, pairs [][2]int64) string {
	return pairlisttest.WriteParquet(t, filepath.Join(t.TempDir(), "pairs.parquet"), pairs)
}

// pairRow is a row of a pair list's distances table: its source and
// target as written, its other columns as text (describeOthers), its
// distance (paths.Unreachable: null) and its parent (paths.NoParent: null
// or no parent column).
type pairRow struct {
	Source, Target int64
	Others         string
	Dist           int64
	Parent         int64
}

// pairTableColumns are the columns a pair list's distances table writes
// itself.
var pairTableColumns = []string{"source", "target", "distance", "parent"}

// readPairTable reads every part of a pair list's distances folder,
// Parquet or Arrow IPC, in part and row order, and returns its rows and
// the schema of its first part.
func readPairTable(t *testing.T, dir string) ([]pairRow, *arrow.Schema) {
	t.Helper()
	parts, err := filepath.Glob(filepath.Join(dir, "part-*"))
	if err != nil || len(parts) == 0 {
		t.Fatalf("no part files in %s (%v)", dir, err)
	}
	cfg, err := tables.NewConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	var rows []pairRow
	var schema *arrow.Schema
	for _, part := range parts {
		tr, err := tables.OpenTable(part, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if schema == nil {
			schema = tr.Schema()
		}
		err = tr.Scan(func(rec arrow.RecordBatch) error {
			at := func(name string) arrow.Array {
				if idx := rec.Schema().FieldIndices(name); len(idx) == 1 {
					return rec.Column(idx[0])
				}
				return nil
			}
			src, dst, dist, parent := at("source"), at("target"), at("distance"), at("parent")
			if src == nil || dst == nil || dist == nil || src.NullN()+dst.NullN() > 0 {
				t.Fatalf("%s: schema %s is not a pair list's table", part, rec.Schema())
			}
			for i := range int(rec.NumRows()) {
				r := pairRow{Source: idValue(src, i), Target: idValue(dst, i), Others: describeOthers(rec, i),
					Dist: paths.Unreachable, Parent: int64(paths.NoParent)}
				if dist.IsValid(i) {
					r.Dist = dist.(*array.Int64).Value(i)
				}
				if parent != nil && parent.IsValid(i) {
					r.Parent = idValue(parent, i)
				}
				rows = append(rows, r)
			}
			return nil
		})
		tr.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return rows, schema
}

// idValue reads value i of an int32 or int64 id column.
func idValue(a arrow.Array, i int) int64 {
	if c, ok := a.(*array.Int32); ok {
		return int64(c.Value(i))
	}
	return a.(*array.Int64).Value(i)
}

// describeOthers renders row i's columns other than the table's own as
// "name=value" joined by "|", a null as "name=(null)".
func describeOthers(rec arrow.RecordBatch, i int) string {
	var out []string
	for c, f := range rec.Schema().Fields() {
		if !slices.Contains(pairTableColumns, f.Name) {
			out = append(out, f.Name+"="+rec.Column(c).ValueStr(i))
		}
	}
	return strings.Join(out, "|")
}

// comparePairTable checks the rows of a pair list's table against the
// list: one row per pair in file order, the distance of the reference
// (null where unreachable or beyond cutoff, unless it is
// results.NoCutoff), and, when the table has parents, a parent that
// closes the distance over an arc (null for the source itself and where
// the distance is null). dense turns the table's ids into dense ones.
func comparePairTable(t *testing.T, g *graph.CSR, ref map[int32][]int64, rows []pairRow, pairs [][2]int64, cutoff int64, withParents bool, dense func(int64) int32) {
	t.Helper()
	if len(rows) != len(pairs) {
		t.Fatalf("%d rows for %d pairs", len(rows), len(pairs))
	}
	for i, p := range pairs {
		r := rows[i]
		s, v := dense(r.Source), dense(r.Target)
		want := ref[s][v]
		if cutoff != results.NoCutoff && want > cutoff {
			want = paths.Unreachable
		}
		if r.Source != p[0] || r.Target != p[1] || r.Dist != want {
			t.Fatalf("row %d is (%d, %d, %s), want (%d, %d, %s)", i, r.Source, r.Target, distText(r.Dist), p[0], p[1], distText(want))
		}
		if !withParents {
			if r.Parent != int64(paths.NoParent) {
				t.Fatalf("row %d: parent %d without parents", i, r.Parent)
			}
			continue
		}
		parent := int32(paths.NoParent)
		if r.Parent != int64(paths.NoParent) {
			parent = dense(r.Parent)
		}
		dist := ref[s]
		if want == paths.Unreachable && dist[v] != paths.Unreachable { // beyond the cutoff
			if parent != paths.NoParent {
				t.Fatalf("row %d: parent %d beyond the cutoff", i, parent)
			}
			continue
		}
		if err := checkParent(g, dist, s, v, parent); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
	}
}

// denseIDs reads a table's ids as dense ids: the identity.
func denseIDs(id int64) int32 { return int32(id) }

// shapePairs is a pair list on the shape graph with every case a pair list
// has: a source listed again after others, a pair listed twice, a target
// equal to its source, and unreachable targets.
func shapePairs(t *testing.T, ref map[int32][]int64) [][2]int64 {
	t.Helper()
	pairs := [][2]int64{{5, 17}, {3, 59}, {5, 5}, {30, 3}, {3, 2}, {5, 17}, {41, 41}}
	unreachable := 0
	for _, s := range []int32{5, 30} {
		for v, d := range ref[s] {
			if d == paths.Unreachable {
				pairs = append(pairs, [2]int64{int64(s), int64(v)})
				unreachable++
				break
			}
		}
	}
	if unreachable == 0 {
		t.Fatal("no unreachable pair: the test does not see nulls")
	}
	return pairs
}

// A pair list computes exactly its pairs, a row per pair in file order
// (a pair twice twice, unreachable pairs null), for every algorithm and
// cutoff; distances equal the reference and parents close them over an
// arc; the summary still has a row per source.
func TestComputePairList(t *testing.T) {
	g, ref := shapeGraph(t)
	pairs := shapePairs(t, ref)
	file := writePairsCSV(t, pairs)
	for _, alg := range []string{"dijkstra", "bellman-ford", "johnson", "floyd-warshall"} {
		for _, cutoff := range []int64{results.NoCutoff, 0, 60, 1 << 40} {
			t.Run(fmt.Sprintf("%s/cutoff=%d", alg, cutoff), func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out")
				res := runCompute(t, loadCompute(t, "", shapeArgs(out, "-algorithm", alg, "-pairs", file,
					"-max-distance", strconv.FormatInt(cutoff, 10), "-summary")...))
				rows, schema := readPairTable(t, filepath.Join(out, output.DistancesDir))
				comparePairTable(t, g, ref, rows, pairs, cutoff, true, denseIDs)
				if names := fieldNames(schema); !slices.Equal(names, pairTableColumns) {
					t.Errorf("columns %v, want %v", names, pairTableColumns)
				}
				meta := schema.Metadata()
				if v, _ := meta.GetValue(MetaTargets); v != "pairs" {
					t.Errorf("pathflow.targets = %q, want pairs", v)
				}
				if res.Manifest.Sources != 4 {
					t.Errorf("manifest: %d sources, want the 4 distinct ones", res.Manifest.Sources)
				}
				summary := readTable(t, output.SummaryName, filepath.Join(out, output.SummaryName+".parquet"))
				if len(summary) != 4 {
					t.Errorf("summary: %d rows, want one per source", len(summary))
				}
			})
		}
	}
}

// fieldNames lists a schema's column names.
func fieldNames(s *arrow.Schema) []string {
	var names []string
	for _, f := range s.Fields() {
		names = append(names, f.Name)
	}
	return names
}

// A Parquet pair list gives the rows of the same pairs in CSV, in either
// output format, its other column kept, and compute.paths works beside it.
func TestComputePairListParquetAndArrow(t *testing.T) {
	g, ref := shapeGraph(t)
	pairs := shapePairs(t, ref)
	for _, format := range []string{"parquet", "arrow"} {
		out := filepath.Join(t.TempDir(), "out")
		runCompute(t, loadCompute(t, "", shapeArgs(out, "-pairs", writePairsParquet(t, pairs), "-output-format", format,
			"-paths", "5-40,30-3")...))
		rows, schema := readPairTable(t, filepath.Join(out, output.DistancesDir))
		comparePairTable(t, g, ref, rows, pairs, results.NoCutoff, true, denseIDs)
		if names := fieldNames(schema); !slices.Equal(names, []string{"source", "target", "note", "distance", "parent"}) {
			t.Errorf("%s: columns %v", format, names)
		}
		for i, r := range rows {
			if r.Others != "note=x" {
				t.Fatalf("%s: row %d carries %q, want the file's note", format, i, r.Others)
			}
		}
		if _, err := os.Stat(filepath.Join(out, output.PathsName+"."+format)); err != nil {
			t.Errorf("%s: no paths table: %v", format, err)
		}
	}
}

// randomPairs draws count pairs on the shape graph, sources from a few so
// that every source comes back many times.
func randomPairs(r *rand.Rand, count int) [][2]int64 {
	pairs := make([][2]int64, count)
	for k := range pairs {
		pairs[k] = [2]int64{int64(r.IntN(12) * 5), int64(r.IntN(shapeN))}
	}
	return pairs
}

// Parts and row groups are cut at fixed counts of pairs: the same files
// on any number of workers.
func TestComputePairListFilesAreFixed(t *testing.T) {
	g, ref := shapeGraph(t)
	pairs := randomPairs(rand.New(rand.NewPCG(1, 2)), 3000)
	file := writePairsCSV(t, pairs)
	yaml := "output:\n  part_rows: 700\n  batch_rows: 90\n"
	var first [][]byte
	for _, workers := range []string{"1", "2", "3"} {
		out := filepath.Join(t.TempDir(), "out")
		runCompute(t, loadCompute(t, yaml, shapeArgs(out, "-pairs", file, "-max-distance", "80", "-workers", workers)...))
		parts := partFiles(t, filepath.Join(out, output.DistancesDir))
		if len(parts) != 5 {
			t.Fatalf("%d parts, want 5 of up to 700 pairs", len(parts))
		}
		var got [][]byte
		for _, p := range parts {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, b)
		}
		if first == nil {
			first = got
			rows, _ := readPairTable(t, filepath.Join(out, output.DistancesDir))
			comparePairTable(t, g, ref, rows, pairs, 80, true, denseIDs)
			continue
		}
		for i := range got {
			if !bytes.Equal(got[i], first[i]) {
				t.Fatalf("%s workers: part %d differs from the one-worker run's", workers, i)
			}
		}
	}
}

// A pair list run in 3 shards, finalized, holds the rows of the one-shot
// run, row for row: each shard a block of the file's rows, the shards in
// order the file's order, a source's rows split between shards where the
// blocks cut them. Each path of compute.paths is written once.
func TestComputePairListShards(t *testing.T) {
	g, ref := shapeGraph(t)
	pairs := randomPairs(rand.New(rand.NewPCG(5, 6)), 200)
	file := writePairsWithTrips(t, pairs)
	oneShot, dataset := oneShotAndShards(t, 3, "-generate", shapeSpec, "-backend", "cpu", "-pairs", file, "-summary",
		"-paths", fmt.Sprintf("%d:%d,%d:%d", pairs[0][0], pairs[0][1], pairs[199][0], pairs[199][1]))
	want, _ := readPairTable(t, filepath.Join(oneShot, output.DistancesDir))
	comparePairTable(t, g, ref, want, pairs, results.NoCutoff, true, denseIDs)
	var got []pairRow
	shardsOf := map[int64]map[int]bool{} // each source's shards
	for i := range 3 {
		rows, _ := readPairTable(t, filepath.Join(dataset, output.DistancesDir, output.ShardName(i)))
		if lo, hi := blockBounds(len(pairs), i, 3); len(rows) != hi-lo {
			t.Errorf("shard %d: %d rows, want rows %d..%d of the file", i, len(rows), lo, hi-1)
		}
		for _, r := range rows {
			if shardsOf[r.Source] == nil {
				shardsOf[r.Source] = map[int]bool{}
			}
			shardsOf[r.Source][i] = true
		}
		got = append(got, rows...)
	}
	split := 0
	for _, in := range shardsOf {
		if len(in) > 1 {
			split++
		}
	}
	if split == 0 {
		t.Error("no source has rows in two shards: the test does not see blocks of rows")
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the shards hold %d rows that differ from the one-shot run's %d", len(got), len(want))
	}
	for i, r := range got {
		if r.Others != fmt.Sprintf("trip=t%d", i) {
			t.Fatalf("row %d carries %q", i, r.Others)
		}
	}
	var pathRows []any
	for i := range 3 {
		part := filepath.Join(dataset, output.PathsName, output.ShardName(i), "part-00000.parquet")
		if _, err := os.Stat(part); err == nil { // a shard without paths writes none
			pathRows = append(pathRows, readTable(t, output.PathsName, part)...)
		}
	}
	if len(pathRows) != 2 {
		t.Errorf("the shards write %d paths, want each of the 2 once", len(pathRows))
	}
	m := readDatasetManifest(t, dataset)
	var parts []string
	for _, f := range m.Files {
		if strings.HasPrefix(f.Path, output.DistancesDir+"/") {
			parts = append(parts, f.Path)
		}
	}
	if !slices.IsSorted(parts) || len(parts) != 3 {
		t.Errorf("the dataset lists the distances parts %v, want one per shard in shard order", parts)
	}
}

// writePairsWithTrips writes pairs as a CSV pair list with a trip id
// column, trip=t<row>, before source and target.
func writePairsWithTrips(t *testing.T, pairs [][2]int64) string {
	var b strings.Builder
	b.WriteString("trip,source,target\n")
	for i, p := range pairs {
		fmt.Fprintf(&b, "t%d,%d,%d\n", i, p[0], p[1])
	}
	path := filepath.Join(t.TempDir(), "trips.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The file's other columns go into the table beside each pair, after
// source and target and in file order: as text from CSV (an empty field
// null), with their types and nulls from Parquet, in both output formats.
func TestComputePairListKeepsOtherColumns(t *testing.T) {
	g, ref := shapeGraph(t)
	pairs := [][2]int64{{5, 17}, {3, 59}, {5, 17}, {30, 3}}
	dir := t.TempDir()
	csv := filepath.Join(dir, "pairs.csv")
	text := "trip,source,mode,target,weight\na,5,car,17,1.5\nb,3,,59,2\n\"c, d\",5,bike,17,\ne,30,car,3,4\n"
	if err := os.WriteFile(csv, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{
		{Name: "trip", Type: arrow.PrimitiveTypes.Int64},
		{Name: "target", Type: arrow.PrimitiveTypes.Int32},
		{Name: "weight", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "source", Type: arrow.PrimitiveTypes.Int64},
		{Name: "mode", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil))
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1 << 40, 7, 7, -2}, nil)
	b.Field(1).(*array.Int32Builder).AppendValues([]int32{17, 59, 17, 3}, nil)
	b.Field(2).(*array.Float64Builder).AppendValues([]float64{1.5, 2, 0, 4}, []bool{true, true, false, true})
	b.Field(3).(*array.Int64Builder).AppendValues([]int64{5, 3, 5, 30}, nil)
	b.Field(4).(*array.StringBuilder).AppendValues([]string{"car", "", "bike", "car"}, []bool{true, false, true, true})
	rec := b.NewRecordBatch()
	defer rec.Release()
	parquet := tablestest.WriteParquet(t, filepath.Join(dir, "pairs.parquet"), rec, nil)
	for _, tc := range []struct {
		name, file string
		columns    []string
		types      []arrow.DataType // of the other columns
		others     []string
	}{
		{"csv", csv, []string{"source", "target", "trip", "mode", "weight", "distance", "parent"},
			[]arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.String, arrow.BinaryTypes.String},
			[]string{"trip=a|mode=car|weight=1.5", "trip=b|mode=(null)|weight=2", "trip=c, d|mode=bike|weight=(null)", "trip=e|mode=car|weight=4"}},
		{"parquet", parquet, []string{"source", "target", "trip", "weight", "mode", "distance", "parent"},
			[]arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64, arrow.BinaryTypes.String},
			[]string{"trip=1099511627776|weight=1.5|mode=car", "trip=7|weight=2|mode=(null)", "trip=7|weight=(null)|mode=bike", "trip=-2|weight=4|mode=car"}},
	} {
		for _, format := range []string{"parquet", "arrow"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out")
				runCompute(t, loadCompute(t, "", shapeArgs(out, "-pairs", tc.file, "-output-format", format)...))
				rows, schema := readPairTable(t, filepath.Join(out, output.DistancesDir))
				comparePairTable(t, g, ref, rows, pairs, results.NoCutoff, true, denseIDs)
				if names := fieldNames(schema); !slices.Equal(names, tc.columns) {
					t.Fatalf("columns %v, want %v", names, tc.columns)
				}
				for j, want := range tc.types {
					if got := schema.Field(2 + j).Type; !arrow.TypeEqual(got, want) {
						t.Errorf("column %q is %s, want %s", schema.Field(2+j).Name, got, want)
					}
				}
				for i, r := range rows {
					if r.Others != tc.others[i] {
						t.Errorf("row %d carries %q, want %q", i, r.Others, tc.others[i])
					}
				}
			})
		}
	}
}

// A file column named as one the table writes is refused before any
// search, naming it; parent only where the table has parents.
func TestComputePairListRefusesClashingColumns(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		text  string
		args  []string
		clash string
	}{
		{"source,target,distance\n1,2,x\n", nil, "distance"},
		{"parent,source,target\nx,1,2\n", nil, "parent"},
		{"parent,source,target\nx,1,2\n", []string{"-parents=false"}, ""},
		{"source,target,Distance\n1,2,x\n", nil, ""},
	} {
		file := filepath.Join(dir, "p.csv")
		if err := os.WriteFile(file, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := configThenCompute(t, shapeArgs(filepath.Join(t.TempDir(), "out"), append([]string{"-pairs", file}, tc.args...)...)...)
		switch {
		case tc.clash == "" && err != nil:
			t.Errorf("%q %v: %v", tc.text, tc.args, err)
		case tc.clash != "" && (err == nil || stageerr.KindOf(err) != stageerr.Input || !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.clash)) ||
			!strings.Contains(err.Error(), "rename it") || !strings.Contains(err.Error(), KeyPairList)):
			t.Errorf("%q: err = %v (kind %v), want an input error naming the column %q", tc.text, err, stageerr.KindOf(err), tc.clash)
		}
	}
}

// Bad pair lists and key combinations fail with the file, the row and the
// id, or the keys, and the exit code of their class.
func TestComputePairListErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	unknownCSV := write("unknown.csv", "source,target\n1,2\n3,60\n")
	unknownParquet := writePairsParquet(t, [][2]int64{{1, 2}, {4, 7}, {99, 3}})
	for _, tc := range []struct {
		name    string
		args    []string
		code    stageerr.Kind
		mention []string
	}{
		{"unknown target in CSV, header counted", []string{"-pairs", unknownCSV}, stageerr.Input, []string{unknownCSV, "row 3", "target 60"}},
		{"unknown source in Parquet", []string{"-pairs", unknownParquet}, stageerr.Input, []string{unknownParquet, "row 3", "source 99"}},
		{"original ids", []string{"-pairs", unknownCSV, "-ids", "original"}, stageerr.Input, []string{"row 3", "target 60", "original id"}},
		{"no such file", []string{"-pairs", filepath.Join(dir, "missing.csv")}, stageerr.Input, []string{"missing.csv"}},
		{"not a number", []string{"-pairs", write("bad.csv", "source,target\n1,2\n\n4,x\n")}, stageerr.Input, []string{"bad.csv:4", `"x"`}},
		{"no target column", []string{"-pairs", write("cols.csv", "source,dest\n1,2\n")}, stageerr.Input, []string{"cols.csv:1", "source and target"}},
		{"a row with an extra field", []string{"-pairs", write("extra.csv", "source,target\n1,2\n3,4,5\n")}, stageerr.Input, []string{"extra.csv:3", "3 fields, the header has 2"}},
		{"a short row", []string{"-pairs", write("short.csv", "source,note,target\n1,a,2\n3,4\n")}, stageerr.Input, []string{"short.csv:3", "2 fields, the header has 3"}},
		{"no pairs", []string{"-pairs", write("empty.csv", "source,target\n")}, stageerr.Input, []string{"empty.csv", "no pair"}},
		{"with sources", []string{"-pairs", unknownCSV, "-sources", "1-3"}, stageerr.Config, []string{KeyPairList, KeySources, KeyTargets}},
		{"with targets", []string{"-pairs", unknownCSV, "-targets", "1"}, stageerr.Config, []string{KeyPairList, KeySources, KeyTargets}},
		{"wide", []string{"-pairs", unknownCSV, "-layout", "wide"}, stageerr.Config, []string{KeyPairList, KeyLayout}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := configThenCompute(t, shapeArgs(filepath.Join(t.TempDir(), "out"), tc.args...)...)
			if err == nil || stageerr.KindOf(err) != tc.code {
				t.Fatalf("err = %v (kind %v), want kind %v", err, stageerr.KindOf(err), tc.code)
			}
			for _, m := range tc.mention {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("err = %v, want it to mention %q", err, m)
				}
			}
		})
	}
}

// DuckDB reads a pair list's table: one row per pair, in file order
// across its parts, the file's trip id beside each, nulls where a target
// is unreachable.
func TestDuckDBReadsPairListOutput(t *testing.T) {
	duckdbtest.Require(t)
	_, ref := shapeGraph(t)
	pairs := append(shapePairs(t, ref), randomPairs(rand.New(rand.NewPCG(3, 4)), 400)...)
	out := filepath.Join(t.TempDir(), "out")
	runCompute(t, loadCompute(t, "output:\n  part_rows: 128\n  batch_rows: 50\n", shapeArgs(out, "-pairs", writePairsWithTrips(t, pairs))...))
	res := duckdbtest.Query(t, inPartOrder(out, "trip, source, target, distance"))
	if len(res[0].Rows) != len(pairs) {
		t.Fatalf("DuckDB reads %d rows, want %d", len(res[0].Rows), len(pairs))
	}
	for i, row := range res[0].Rows {
		p := pairs[i]
		got := duckdbtest.Text(row[0]) + " " + duckdbtest.Text(row[1]) + " " + duckdbtest.Text(row[2]) + " " + duckdbtest.Text(row[3])
		d := "NULL"
		if w := ref[int32(p[0])][p[1]]; w != paths.Unreachable {
			d = strconv.FormatInt(w, 10)
		}
		if want := fmt.Sprintf("t%d %d %d %s", i, p[0], p[1], d); got != want {
			t.Fatalf("row %d: DuckDB reads %q, want %q", i, got, want)
		}
	}
}

// The settings checksum covers the pair list's bytes, not its path: the
// same pairs from another folder are the same result, other pairs are not.
func TestPairListEntersTheSettingsChecksum(t *testing.T) {
	sum := func(pairs [][2]int64) string {
		out := filepath.Join(t.TempDir(), "out")
		return runCompute(t, loadCompute(t, "", shapeArgs(out, "-pairs", writePairsCSV(t, pairs))...)).Manifest.ConfigSHA256
	}
	a, again, other := sum([][2]int64{{1, 2}}), sum([][2]int64{{1, 2}}), sum([][2]int64{{1, 3}})
	if a != again || a == other {
		t.Errorf("checksums %s (a), %s (a elsewhere), %s (other pairs)", a, again, other)
	}
	plain := loadCompute(t, "", shapeArgs(filepath.Join(t.TempDir(), "out"))...).ConfigSHA256
	if plain == a {
		t.Error("a pair list run has the checksum of a run without one")
	}
}

// writePairsArrow writes pairs as an Arrow IPC pair list with int32
// columns.
func writePairsArrow(t *testing.T, pairs [][2]int64) string {
	return pairlisttest.WriteArrow(t, filepath.Join(t.TempDir(), "pairs.arrow"), pairs)
}

// On rome99, a pair list in original (DIMACS) ids, as an Arrow IPC file,
// gives the reference distances of the dense vertices they name, and
// writes its source, target and parent in those ids.
func TestComputePairListOriginalIDs(t *testing.T) {
	file := mirrorFile(t, "rome99.gr")
	g := graph.BuildCSR(loadInput(t, input.Spec{Path: file}))
	original := [][2]int64{{1, 3353}, {2000, 1}, {1, 1}, {2000, 77}, {1, 500}, {2000, 1}}
	ref := refDists(g, []int32{0, 1999})
	out := filepath.Join(t.TempDir(), "out")
	runCompute(t, loadCompute(t, "", "-input", file, "-backend", "cpu", "-out", out, "-ids", "original", "-pairs", writePairsArrow(t, original)))
	rows, schema := readPairTable(t, filepath.Join(out, output.DistancesDir))
	for _, name := range []string{"source", "target", "parent"} {
		if f, _ := schema.FieldsByName(name); len(f) != 1 || f[0].Type.ID() != arrow.INT64 {
			t.Errorf("column %s: %v, want int64", name, f)
		}
	}
	// DIMACS vertex k is dense k-1.
	comparePairTable(t, g, ref, rows, original, results.NoCutoff, true, func(id int64) int32 { return int32(id - 1) })
	if rows[0].Parent < 1 {
		t.Errorf("parent %d is not a DIMACS id", rows[0].Parent)
	}
}

// distancesOnly drops the parents of rows, which runs may pick apart
// among equal paths.
func distancesOnly(rows []longRow) []longRow {
	out := make([]longRow, len(rows))
	for i, r := range rows {
		r.Parent = paths.NoParent
		out[i] = r
	}
	return out
}
