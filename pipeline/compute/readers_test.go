package compute

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/readertest"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// These tests read outputs with polars and Arrow JS, as analysts do, and
// check the values they see against the reference distances or against
// the files' own contents decoded by arrow-go. They skip without the
// readers (see internal/readertest) unless CI requires them.

// longFromTable turns a source, vertex, distance, parent table into rows,
// nulls as paths.Unreachable and paths.NoParent.
func longFromTable(t *testing.T, tab readertest.Table) []longRow {
	t.Helper()
	if !slices.Equal(tab.Columns[:4], []string{"source", "vertex", "distance", "parent"}) {
		t.Fatalf("columns %v", tab.Columns)
	}
	rows := make([]longRow, len(tab.Rows))
	for i, r := range tab.Rows {
		rows[i] = longRow{Source: int32(r[0].(int64)), Vertex: int32(r[1].(int64)), Dist: paths.Unreachable, Parent: paths.NoParent}
		if r[2] != nil {
			rows[i].Dist = r[2].(int64)
		}
		if r[3] != nil {
			rows[i].Parent = int32(r[3].(int64))
		}
	}
	return rows
}

func TestPolarsReadsLongOutputs(t *testing.T) {
	readertest.Require(t)
	g, ref := shapeGraph(t)
	sources, targets := seq(shapeN), []int32{59, 7, 0, 1, 2, 3, 4, 5, 33}
	for _, cutoff := range []int64{results.NoCutoff, 70} {
		t.Run(fmt.Sprintf("cutoff %d", cutoff), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := shapeArgs(out, "-sources", "all", "-targets", "59,7,0-5,33", "-max-distance", strconv.FormatInt(cutoff, 10))
			res := runCompute(t, loadCompute(t, "output:\n  part_rows: 128\n  batch_rows: 50\n", args...))
			if len(res.Manifest.Files) < 3 {
				t.Fatalf("%d files: the test wants several parts", len(res.Manifest.Files))
			}
			tab := readertest.PolarsParquet(t, filepath.Join(out, output.DistancesDir, "*.parquet"), false)
			if !slices.Equal(tab.Types, []string{"Int32", "Int32", "Int64", "Int32"}) {
				t.Errorf("polars types %v", tab.Types)
			}
			want := expectLong(ref, sources, targets, shapeN, cutoff)
			if cutoff == results.NoCutoff && !slices.ContainsFunc(want, func(r longRow) bool { return r.Dist == paths.Unreachable }) {
				t.Fatal("no unreachable cell: the test does not see nulls")
			}
			compareLong(t, g, ref, longFromTable(t, tab), want)
		})
	}
}

func TestPolarsReadsWideOutputs(t *testing.T) {
	readertest.Require(t)
	g, ref := shapeGraph(t)
	out, targets := computeWide(t)
	tab := readertest.PolarsParquet(t, filepath.Join(out, output.DistancesDir, "*.parquet"), false)
	if !slices.Equal(tab.Columns, []string{"source", "distance", "parent"}) ||
		!slices.Equal(tab.Types, []string{"Int32", "List(Int64)", "List(Int32)"}) {
		t.Fatalf("polars reads columns %v of types %v", tab.Columns, tab.Types)
	}
	if len(tab.Rows) != shapeN {
		t.Fatalf("polars reads %d rows, want %d", len(tab.Rows), shapeN)
	}
	nulls := 0
	for s, r := range tab.Rows {
		if r[0] != int64(s) {
			t.Fatalf("row %d has source %v", s, r[0])
		}
		dists, parents := r[1].([]any), r[2].([]any)
		if len(dists) != len(targets) || len(parents) != len(targets) {
			t.Fatalf("row %d: %d distances and %d parents for %d targets", s, len(dists), len(parents), len(targets))
		}
		for k, v := range targets {
			d := ref[int32(s)][v]
			if d > 90 {
				d = paths.Unreachable
			}
			if d == paths.Unreachable {
				nulls++
			}
			if dists[k] != distValue(d) {
				t.Fatalf("row %d, target %d: polars reads distance %v, want %s", s, v, dists[k], distText(d))
			}
			p := paths.NoParent
			if parents[k] != nil {
				p = int32(parents[k].(int64))
			}
			if d != paths.Unreachable {
				if err := checkParent(g, ref[int32(s)], int32(s), v, p); err != nil {
					t.Fatalf("row %d, target %d: %v", s, v, err)
				}
			}
		}
	}
	if nulls == 0 || nulls == shapeN*len(targets) {
		t.Errorf("%d null cells of %d: the test wants some", nulls, shapeN*len(targets))
	}
}

func TestPolarsReadsPathsAndSummary(t *testing.T) {
	readertest.Require(t)
	g, ref := shapeGraph(t)
	out := filepath.Join(t.TempDir(), "out")
	runCompute(t, loadCompute(t, "", shapeArgs(out, "-sources", "0-9", "-paths", "0-59,3-17,5-5,9-40", "-summary")...))
	tab := readertest.PolarsParquet(t, filepath.Join(out, output.PathsName+".parquet"), false)
	if !slices.Equal(tab.Types, []string{"Int32", "Int32", "Int64", "List(Int32)"}) {
		t.Errorf("polars types %v", tab.Types)
	}
	pairs := [][2]int32{{0, 59}, {3, 17}, {5, 5}, {9, 40}}
	if len(tab.Rows) != len(pairs) {
		t.Fatalf("polars reads %d paths, want %d", len(tab.Rows), len(pairs))
	}
	unreachable := 0
	for i, pair := range pairs {
		r := tab.Rows[i]
		s, v, d := pair[0], pair[1], ref[pair[0]][pair[1]]
		if r[0] != int64(s) || r[1] != int64(v) || r[2] != distValue(d) {
			t.Fatalf("path %d: polars reads %v, want %d to %d costing %s", i, r, s, v, distText(d))
		}
		if d == paths.Unreachable {
			unreachable++
			if r[3] != nil {
				t.Errorf("path %d: vertices %v for an unreachable target", i, r[3])
			}
			continue
		}
		list := r[3].([]any)
		walk := make([]int32, len(list))
		for k, x := range list {
			walk[k] = int32(x.(int64))
		}
		if cost, ok := walkCost(g, walk); !ok || cost != d || walk[0] != s || walk[len(walk)-1] != v {
			t.Errorf("path %d: polars reads vertices %v (cost %d, arcs exist: %v), want a path from %d to %d costing %d", i, walk, cost, ok, s, v, d)
		}
	}
	if unreachable == len(pairs) {
		t.Error("no pair is reachable: the test checks no path")
	}

	sum := readertest.PolarsParquet(t, filepath.Join(out, output.SummaryName+".parquet"), false)
	if len(sum.Rows) != 10 {
		t.Fatalf("polars reads %d summary rows, want 10", len(sum.Rows))
	}
	for i, r := range sum.Rows {
		reach := int64(0)
		for _, d := range ref[int32(i)] {
			if d != paths.Unreachable {
				reach++
			}
		}
		if r[0] != int64(i) || r[1] != reach {
			t.Errorf("summary row %d: polars reads source %v reaching %v, want %d reaching %d", i, r[0], r[1], i, reach)
		}
	}
}

func TestPolarsReadsTheShardedDataset(t *testing.T) {
	readertest.Require(t)
	oneShot, dataset := oneShotAndShards(t, 3, shardGridArgs...)
	want, _, _ := readLong(t, filepath.Join(oneShot, output.DistancesDir))
	tab := readertest.PolarsParquet(t, filepath.Join(dataset, output.DistancesDir, "*", "*.parquet"), true)
	if !slices.Equal(tab.Columns, []string{"source", "vertex", "distance", "parent", "shard"}) {
		t.Fatalf("polars reads columns %v", tab.Columns)
	}
	if got := longFromTable(t, tab); !reflect.DeepEqual(got, want) {
		t.Errorf("polars reads %d rows from the shards, unlike the %d of the one-shot run", len(got), len(want))
	}
	// The partition column comes back from the folder names, one value per
	// shard over its own sources.
	perShard := map[string][2]int64{}
	for _, r := range tab.Rows {
		key := fmt.Sprint(r[4])
		lo, hi := perShard[key][0], perShard[key][1]
		if _, seen := perShard[key]; !seen {
			lo, hi = r[0].(int64), r[0].(int64)
		}
		perShard[key] = [2]int64{min(lo, r[0].(int64)), max(hi, r[0].(int64))}
	}
	wantShards := map[string][2]int64{"0": {0, 15}, "1": {16, 32}, "2": {33, 49}}
	if !reflect.DeepEqual(perShard, wantShards) {
		t.Errorf("polars reads shards (first and last source) %v, want %v", perShard, wantShards)
	}
}

// walkCost is the cost of walking the arcs between consecutive vertices of
// walk, the cheapest where there are parallel arcs; ok is false when an
// arc is missing.
func walkCost(g *graph.CSR, walk []int32) (cost int64, ok bool) {
	for i := 1; i < len(walk); i++ {
		best, found := int64(0), false
		for a := g.Offsets[walk[i-1]]; a < g.Offsets[walk[i-1]+1]; a++ {
			if w := int64(g.Weights[a]); g.Targets[a] == walk[i] && (!found || w < best) {
				best, found = w, true
			}
		}
		if !found {
			return cost, false
		}
		cost += best
	}
	return cost, true
}

// TestArrowReadersReadEveryIPCOutput writes every Arrow IPC output (the
// long and wide distances, vertices, paths, summary, and ingest's edges
// and vertices) with each compression the README offers, and reads each
// file with Arrow JS and with polars: both must see exactly the values
// arrow-go decodes from the file, and the long distances must be the
// reference ones.
func TestArrowReadersReadEveryIPCOutput(t *testing.T) {
	readertest.Require(t)
	g, ref := shapeGraph(t)
	for _, compression := range []string{"none", "lz4", "zstd"} {
		t.Run(compression, func(t *testing.T) {
			dir := t.TempDir()
			long, wide, ingested := filepath.Join(dir, "long"), filepath.Join(dir, "wide"), filepath.Join(dir, "ingest")
			common := []string{"-output-format", "arrow", "-compression", compression}
			runCompute(t, loadCompute(t, "", shapeArgs(long, append(common, "-sources", "0-9", "-paths", "0-59,3-17", "-summary")...)...))
			runCompute(t, loadCompute(t, "", shapeArgs(wide, append(common, "-sources", "0-9", "-layout", "wide")...)...))
			if _, err := ingest.Run(context.Background(), loadIngest(t, append(common, "-generate", shapeSpec, "-out", ingested)...), stagetest.QuietLog, io.Discard); err != nil {
				t.Fatal(err)
			}
			files, err := filepath.Glob(filepath.Join(dir, "*", "*.arrow"))
			if err != nil {
				t.Fatal(err)
			}
			parts, err := filepath.Glob(filepath.Join(dir, "*", output.DistancesDir, "*.arrow"))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, parts...)
			if len(files) != 8 {
				t.Fatalf("%d Arrow files %v, want 8", len(files), files)
			}
			for _, path := range files {
				want := ipcRows(t, path, compression)
				if len(want) == 0 {
					t.Fatalf("%s: no rows", path)
				}
				for reader, read := range map[string]func(testing.TB, string) readertest.Table{"Arrow JS": readertest.ArrowJS, "polars": readertest.PolarsIPC} {
					got := read(t, path)
					if len(got.Rows) != len(want) {
						t.Errorf("%s reads %d rows from %s, arrow-go %d", reader, len(got.Rows), path, len(want))
					}
					for i := range min(len(got.Rows), len(want)) {
						if !reflect.DeepEqual(got.Rows[i], want[i]) {
							t.Errorf("%s reads row %d of %s as %v, arrow-go as %v", reader, i, path, got.Rows[i], want[i])
							break
						}
					}
					if strings.Contains(path, filepath.Join("long", output.DistancesDir)) {
						compareLong(t, g, ref, longFromTable(t, got), expectLong(ref, seq(10), nil, shapeN, results.NoCutoff))
					}
				}
			}
		})
	}
}

// ipcRows decodes an Arrow IPC file with arrow-go into the values
// readertest returns, checking that its buffers carry the compression.
func ipcRows(t *testing.T, path, compression string) [][]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer r.Close()
	var rows [][]any
	for i := range r.NumRecords() {
		rec, err := r.RecordBatchAt(i)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for row := range int(rec.NumRows()) {
			vals := make([]any, rec.NumCols())
			for c := range vals {
				vals[c] = ipcValue(t, rec.Column(c), row)
			}
			rows = append(rows, vals)
		}
		rec.Release()
	}
	if got := ipcCompression(t, path); got != compression {
		t.Fatalf("%s: buffers compressed with %s, want %s", path, got, compression)
	}
	return rows
}

func ipcValue(t *testing.T, col arrow.Array, i int) any {
	if col.IsNull(i) {
		return nil
	}
	switch c := col.(type) {
	case *array.Int32:
		return int64(c.Value(i))
	case *array.Int64:
		return c.Value(i)
	case *array.Float64:
		return c.Value(i)
	case *array.List:
		lo, hi := c.ValueOffsets(i)
		out := make([]any, 0, hi-lo)
		for k := lo; k < hi; k++ {
			out = append(out, ipcValue(t, c.ListValues(), int(k)))
		}
		return out
	}
	t.Fatalf("no test value for an Arrow %s", col.DataType())
	return nil
}

// ipcCompression names the buffer compression of the file's record
// batches as the compression flag does, from the IPC messages.
func ipcCompression(t *testing.T, path string) string {
	t.Helper()
	// arrow-go decompresses transparently; the raw file tells which codec
	// was used by the LZ4 frame or zstd frame magic in its bodies.
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lz4, zstd := strings.Contains(string(raw), "\x04\x22\x4d\x18"), strings.Contains(string(raw), "\x28\xb5\x2f\xfd")
	switch {
	case lz4 && !zstd:
		return "lz4"
	case zstd && !lz4:
		return "zstd"
	case !lz4 && !zstd:
		return "none"
	}
	return "both"
}

// TestPolarsRunsTheREADMESnippet runs the README's polars snippet, as
// written there, on the demo config's output and on a DIMACS output, whose
// original ids differ from the dense ones, and checks what it prints
// against the reference distances: the same rows as the DuckDB query.
func TestPolarsRunsTheREADMESnippet(t *testing.T) {
	readertest.Require(t)
	snippet := readmeSnippet(t, "snippet", "js", "polars (Node.js ...:", "polars \\(Node\\.js.*?\\):")
	runREADMEExamples(t, func(t *testing.T, dir, _ string, g *input.LoadedGraph) {
		// The snippet reads out/demo relative to where it runs.
		printed := readertest.RunCommonJS(t, dir, snippet)
		var got [][]any
		dec := json.NewDecoder(strings.NewReader(printed))
		dec.UseNumber()
		for dec.More() {
			var row map[string]any
			if err := dec.Decode(&row); err != nil {
				t.Fatalf("the snippet prints %q: %v", printed, err)
			}
			vals := []any{}
			for _, k := range []string{"source_id", "vertex_id", "x", "y", "distance"} {
				v := row[k]
				if n, ok := v.(json.Number); ok {
					i, err := n.Int64()
					if err != nil {
						t.Fatalf("%s = %s: %v", k, n, err)
					}
					v = i
				}
				vals = append(vals, v)
			}
			got = append(got, vals)
		}
		want := farthestFromZero(g, 5)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the README snippet prints rows %v, want %v", got, want)
		}
	})
}
