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

	"github.com/pathflow/pathflow/formats/pairlist/pairlisttest"
	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/results"
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

// expectPairs is what a pair list's table holds: its pairs grouped by
// source (sources in increasing id order, each one's targets in file
// order), only cells within cutoff unless it is results.NoCutoff.
func expectPairs(ref map[int32][]int64, pairs [][2]int64, cutoff int64) []longRow {
	var order []int32
	groups := map[int32][]int32{}
	for _, p := range pairs {
		s := int32(p[0])
		if _, ok := groups[s]; !ok {
			order = append(order, s)
		}
		groups[s] = append(groups[s], int32(p[1]))
	}
	slices.Sort(order)
	var out []longRow
	for _, s := range order {
		for _, v := range groups[s] {
			d := ref[s][v]
			if cutoff != results.NoCutoff && (d == paths.Unreachable || d > cutoff) {
				continue
			}
			out = append(out, longRow{Source: s, Vertex: v, Dist: d, Parent: paths.NoParent})
		}
	}
	return out
}

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

// A pair list computes exactly its pairs, grouped by source, for every
// algorithm and cutoff; distances equal the reference and parents close
// them over an arc.
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
				rows, meta, hasParents := readLong(t, filepath.Join(out, output.DistancesDir))
				if !hasParents {
					t.Fatal("no parent column")
				}
				compareLong(t, g, ref, rows, expectPairs(ref, pairs, cutoff))
				if meta[MetaTargets] != "pairs" {
					t.Errorf("pathflow.targets = %q, want pairs", meta[MetaTargets])
				}
				if res.Manifest.Sources != 4 {
					t.Errorf("manifest: %d sources, want the 4 distinct ones", res.Manifest.Sources)
				}
			})
		}
	}
}

// A Parquet pair list gives the rows of the same pairs in CSV, in either
// output format, and compute.paths works beside it.
func TestComputePairListParquetAndArrow(t *testing.T) {
	g, ref := shapeGraph(t)
	pairs := shapePairs(t, ref)
	want := expectPairs(ref, pairs, results.NoCutoff)
	for _, format := range []string{"parquet", "arrow"} {
		out := filepath.Join(t.TempDir(), "out")
		runCompute(t, loadCompute(t, "", shapeArgs(out, "-pairs", writePairsParquet(t, pairs), "-output-format", format,
			"-paths", "5-40,30-3")...))
		var rows []longRow
		_, _, err := resultfiles.ScanRows(filepath.Join(out, output.DistancesDir), func(r *resultfiles.ResultRows) error {
			for i := range r.Len() {
				rows = append(rows, longRow{Source: r.Source[i], Vertex: r.Vertex[i], Dist: r.Distance[i], Parent: r.Parent[i]})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		compareLong(t, g, ref, rows, want)
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
// on any number of workers, and shards of whole sources that together
// hold the one-shot run's rows.
func TestComputePairListFilesAreFixed(t *testing.T) {
	_, ref := shapeGraph(t)
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
			rows, _, _ := readLong(t, filepath.Join(out, output.DistancesDir))
			if want := expectPairs(ref, pairs, 80); !reflect.DeepEqual(distancesOnly(rows), want) {
				t.Fatalf("%d rows differ from the %d expected", len(rows), len(want))
			}
			continue
		}
		for i := range got {
			if !bytes.Equal(got[i], first[i]) {
				t.Fatalf("%s workers: part %d differs from the one-worker run's", workers, i)
			}
		}
	}
	oneShot, dataset := oneShotAndShards(t, 3, "-generate", shapeSpec, "-backend", "cpu", "-pairs", file)
	want, _, _ := readLong(t, filepath.Join(oneShot, output.DistancesDir))
	if got := shardRows(t, dataset, 3); !reflect.DeepEqual(got, want) {
		t.Fatalf("the shards hold %d rows that differ from the one-shot run's %d", len(got), len(want))
	}
	for i := range 3 {
		rows, _, _ := readLong(t, filepath.Join(dataset, output.DistancesDir, output.ShardName(i)))
		for _, r := range rows {
			for j := range 3 {
				if j == i {
					continue
				}
				other, _, _ := readLong(t, filepath.Join(dataset, output.DistancesDir, output.ShardName(j)))
				for _, o := range other {
					if o.Source == r.Source {
						t.Fatalf("source %d is in shards %d and %d", r.Source, i, j)
					}
				}
			}
			break
		}
	}
}

// distancesOnly drops the parents of rows, as expectPairs leaves them.
func distancesOnly(rows []longRow) []longRow {
	out := make([]longRow, len(rows))
	for i, r := range rows {
		r.Parent = paths.NoParent
		out[i] = r
	}
	return out
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

// DuckDB reads a pair list's table: one row per pair, in the grouped
// order, nulls where a target is unreachable.
func TestDuckDBReadsPairListOutput(t *testing.T) {
	duckdbtest.Require(t)
	_, ref := shapeGraph(t)
	pairs := append(shapePairs(t, ref), randomPairs(rand.New(rand.NewPCG(3, 4)), 400)...)
	out := filepath.Join(t.TempDir(), "out")
	runCompute(t, loadCompute(t, "output:\n  part_rows: 128\n  batch_rows: 50\n", shapeArgs(out, "-pairs", writePairsCSV(t, pairs))...))
	want := expectPairs(ref, pairs, results.NoCutoff)
	res := duckdbtest.Query(t, inPartOrder(out, "source, vertex, distance"))
	if len(res[0].Rows) != len(want) {
		t.Fatalf("DuckDB reads %d rows, want %d", len(res[0].Rows), len(want))
	}
	for i, row := range res[0].Rows {
		w := want[i]
		d := "NULL"
		if w.Dist != paths.Unreachable {
			d = strconv.FormatInt(w.Dist, 10)
		}
		got := duckdbtest.Text(row[0]) + " " + duckdbtest.Text(row[1]) + " " + duckdbtest.Text(row[2])
		if wantText := fmt.Sprintf("%d %d %s", w.Source, w.Vertex, d); got != wantText {
			t.Fatalf("row %d: DuckDB reads %q, want %q", i, got, wantText)
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
// gives the reference distances of the dense vertices they name.
func TestComputePairListOriginalIDs(t *testing.T) {
	file := mirrorFile(t, "rome99.gr")
	g := graph.BuildCSR(loadInput(t, input.Spec{Path: file}))
	// DIMACS vertex k is dense k-1.
	original := [][2]int64{{1, 3353}, {2000, 1}, {1, 1}, {2000, 77}, {1, 500}}
	dense := make([][2]int64, len(original))
	for i, p := range original {
		dense[i] = [2]int64{p[0] - 1, p[1] - 1}
	}
	ref := refDists(g, []int32{0, 1999})
	out := filepath.Join(t.TempDir(), "out")
	runCompute(t, loadCompute(t, "", "-input", file, "-backend", "cpu", "-out", out, "-ids", "original", "-pairs", writePairsArrow(t, original)))
	rows, _, _ := readLong(t, filepath.Join(out, output.DistancesDir))
	compareLong(t, g, ref, rows, expectPairs(ref, dense, results.NoCutoff))
}
