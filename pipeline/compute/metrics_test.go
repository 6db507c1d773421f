package compute

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/formats/osmroads/osmroadstest"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/earth"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// metricRow is a row of a long distances table with a metric column.
type metricRow struct {
	longRow
	Metric int64
}

// readMetricRows reads a long distances folder with its metric column
// name, checking the column's unit.
func readMetricRows(t *testing.T, dir, name, unit string) []metricRow {
	t.Helper()
	rows, _, _ := readLong(t, dir)
	var out []metricRow
	for _, part := range partFiles(t, dir) {
		tbl, _ := readParquet(t, part)
		idx := tbl.Schema().FieldIndices(name)
		if len(idx) != 1 {
			t.Fatalf("%s: no column %q in %s", part, name, tbl.Schema())
		}
		f := tbl.Schema().Field(idx[0])
		if got, _ := f.Metadata.GetValue(tables.FieldUnit); got != unit {
			t.Fatalf("%s: column %q has unit %q, want %q", part, name, got, unit)
		}
		for _, c := range column(t, tbl, name) {
			m := c.(*array.Int64)
			for i := range m.Len() {
				r := metricRow{longRow: rows[len(out)], Metric: -1}
				if m.IsValid(i) {
					r.Metric = m.Value(i)
				}
				if m.IsValid(i) != (r.Dist != paths.Unreachable) {
					t.Fatalf("%s: row %d: metric valid %v with distance %d", part, len(out), m.IsValid(i), r.Dist)
				}
				out = append(out, r)
			}
		}
	}
	if len(out) != len(rows) {
		t.Fatalf("%d metric values for %d rows", len(out), len(rows))
	}
	return out
}

// TestMetricsOnDelaware computes travel times with lengths on the real
// Delaware network ((c) OpenStreetMap contributors, ODbL), from its ingest
// output, whose stored hierarchy carries the length: ch (from the stored
// hierarchy) and Dijkstra give the same distances, lengths and parents;
// each length is the sum of the arcs' lengths along the parents; no route
// is shorter than the great circle between its ends, nor faster than its
// length at 130 km/h; and the time, being the weight, is refused as a
// metric.
func TestMetricsOnDelaware(t *testing.T) {
	osmroadstest.Extract(t, osmroadstest.Delaware)
	dir, m := ingestTo(t, "-dataset", "delaware-osm")
	if m.Hierarchy == nil || m.Hierarchy.Metric != "length" {
		t.Fatalf("stored hierarchy %+v: want one carrying the length", m.Hierarchy)
	}
	files := tables.GraphFilesIn(dir, tables.Parquet)
	e, vs, _, err := tables.ReadGraph(files)
	if err != nil {
		t.Fatal(err)
	}
	lengths, err := tables.ReadArcColumn(files.Edges, ingest.ColLengthM)
	if err != nil {
		t.Fatal(err)
	}
	e.Metric = lengths.Int32
	g := graph.BuildCSR(e)

	sources := randomIDs(g.N, 3, 7)
	run := func(alg string, extra ...string) (string, *output.Manifest) {
		out := filepath.Join(t.TempDir(), alg)
		res := runCompute(t, loadCompute(t, "", append([]string{"-input", dir, "-out", out, "-backend", "cpu",
			"-algorithm", alg, "-sources", sources, "-metrics", "length"}, extra...)...))
		return out, res.Manifest
	}
	chOut, chManifest := run("ch")
	usedStored(t, chManifest)
	djOut, _ := run("dijkstra")
	chRows := readMetricRows(t, filepath.Join(chOut, output.DistancesDir), "length", "m")
	djRows := readMetricRows(t, filepath.Join(djOut, output.DistancesDir), "length", "m")
	if len(chRows) != len(djRows) || len(chRows) != 3*int(g.N) {
		t.Fatalf("%d ch rows, %d dijkstra rows, want %d", len(chRows), len(djRows), 3*g.N)
	}
	byCell := map[[2]int32]metricRow{}
	reached := 0
	for i, r := range chRows {
		if dj := djRows[i]; r.Source != dj.Source || r.Vertex != dj.Vertex || r.Dist != dj.Dist || r.Metric != dj.Metric {
			t.Fatalf("row %d: ch %+v, dijkstra %+v", i, r, dj)
		}
		byCell[[2]int32{r.Source, r.Vertex}] = r
	}
	const topSpeed = 130 / 3.6 // metres per second, above the car profile's fastest
	for i, r := range chRows {
		if r.Dist == paths.Unreachable || r.Vertex == r.Source {
			continue
		}
		reached++
		// Each algorithm's parent closes both sums over an arc (they may
		// differ where arcs of zero weight and length tie: Dijkstra keeps
		// the first to arrive there).
		for _, parent := range []int32{r.Parent, djRows[i].Parent} {
			p := byCell[[2]int32{r.Source, parent}]
			tight := false
			for a := g.Offsets[parent]; a < g.Offsets[parent+1]; a++ {
				if g.Targets[a] == r.Vertex && p.Dist+int64(g.Weights[a]) == r.Dist && p.Metric+int64(g.Metric[a]) == r.Metric {
					tight = true
				}
			}
			if !tight {
				t.Fatalf("%d -> %d: (%d ms, %d m) through parent %d at (%d ms, %d m): no arc closes both sums", r.Source, r.Vertex, r.Dist, r.Metric, parent, p.Dist, p.Metric)
			}
		}
		// Lengths are rounded to the metre per arc.
		if gc := earth.Distance(vs.Lon(r.Source), vs.Lat(r.Source), vs.Lon(r.Vertex), vs.Lat(r.Vertex)); float64(r.Metric) < gc*0.999-1 {
			t.Fatalf("%d -> %d: %d m, shorter than the great circle's %.1f m", r.Source, r.Vertex, r.Metric, gc)
		}
		if float64(r.Dist) < float64(r.Metric)/topSpeed*1000*0.999-1 {
			t.Fatalf("%d -> %d: %d m in %d ms, faster than %.0f km/h", r.Source, r.Vertex, r.Metric, r.Dist, topSpeed*3.6)
		}
	}
	if reached < int(g.N) {
		t.Fatalf("only %d cells reached", reached)
	}

	// A table narrowed to targets, parents left out: the same cells.
	targets := randomIDs(g.N, 50, 8)
	narrow, _ := run("ch", "-targets", targets, "-parents=false")
	for _, r := range readMetricRows(t, filepath.Join(narrow, output.DistancesDir), "length", "m") {
		want := byCell[[2]int32{r.Source, r.Vertex}]
		if r.Dist != want.Dist || r.Metric != want.Metric {
			t.Fatalf("narrowed %d -> %d: (%d, %d), want (%d, %d)", r.Source, r.Vertex, r.Dist, r.Metric, want.Dist, want.Metric)
		}
	}

	// The wide layout: a list of lengths beside the list of times.
	wide, _ := run("ch", "-targets", targets, "-parents=false", "-layout", "wide")
	targetIDs := strings.Split(targets, ",")
	for _, part := range partFiles(t, filepath.Join(wide, output.DistancesDir)) {
		tbl, _ := readParquet(t, part)
		srcs, dists, lengths := column(t, tbl, "source"), column(t, tbl, "distance"), column(t, tbl, "length")
		if lengths == nil {
			t.Fatalf("%s: no length column in %s", part, tbl.Schema())
		}
		for c := range srcs {
			dl, ll := dists[c].(*array.List), lengths[c].(*array.List)
			dv, lv := dl.ListValues().(*array.Int64), ll.ListValues().(*array.Int64)
			for i := range srcs[c].Len() {
				s := srcs[c].(*array.Int32).Value(i)
				lo, hi := dl.ValueOffsets(i)
				llo, _ := ll.ValueOffsets(i)
				for j := range hi - lo {
					v, _ := strconv.Atoi(targetIDs[j])
					want := byCell[[2]int32{s, int32(v)}]
					dOK, lOK := dv.IsValid(int(lo+j)), lv.IsValid(int(llo+j))
					if dOK != lOK || (dOK && (dv.Value(int(lo+j)) != want.Dist || lv.Value(int(llo+j)) != want.Metric)) {
						t.Fatalf("wide %d -> %d: (%v, %v), want (%d, %d)", s, v, dv.GetOneForMarshal(int(lo+j)), lv.GetOneForMarshal(int(llo+j)), want.Dist, want.Metric)
					}
				}
			}
		}
	}

	// A pair list: each row's length beside its time, in file order.
	pairFile := filepath.Join(t.TempDir(), "pairs.csv")
	var csv strings.Builder
	csv.WriteString("source,target,trip\n")
	src := strings.Split(sources, ",")
	tgt := strings.Split(targets, ",")
	for i := range 40 {
		fmt.Fprintf(&csv, "%s,%s,%d\n", src[i%len(src)], tgt[i], i)
	}
	if err := os.WriteFile(pairFile, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	listOut := filepath.Join(t.TempDir(), "list")
	runCompute(t, loadCompute(t, "", "-input", dir, "-out", listOut, "-backend", "cpu", "-algorithm", "ch", "-pairs", pairFile, "-metrics", "length"))
	for _, part := range partFiles(t, filepath.Join(listOut, output.DistancesDir)) {
		tbl, _ := readParquet(t, part)
		srcs, dsts := column(t, tbl, "source"), column(t, tbl, "target")
		dist, length := column(t, tbl, "distance"), column(t, tbl, "length")
		if length == nil {
			t.Fatalf("%s: no length column in %s", part, tbl.Schema())
		}
		for c := range srcs {
			for i := range srcs[c].Len() {
				s, v := srcs[c].(*array.Int32).Value(i), dsts[c].(*array.Int32).Value(i)
				want := byCell[[2]int32{s, v}]
				d, l := dist[c].(*array.Int64), length[c].(*array.Int64)
				if d.IsValid(i) != l.IsValid(i) || (d.IsValid(i) && (d.Value(i) != want.Dist || l.Value(i) != want.Metric)) || (!d.IsValid(i) && want.Dist != paths.Unreachable) {
					t.Fatalf("pair %d -> %d: (%v, %v), want (%d, %d)", s, v, d.GetOneForMarshal(i), l.GetOneForMarshal(i), want.Dist, want.Metric)
				}
			}
		}
	}

	// The weight itself is not a metric.
	_, err = Run(t.Context(), loadCompute(t, "", "-input", dir, "-out", filepath.Join(t.TempDir(), "w"), "-backend", "cpu", "-metrics", "time"), stagetest.QuietLog, io.Discard)
	var cfgErr *config.Error
	if !errors.As(err, &cfgErr) || !strings.Contains(err.Error(), "weight") {
		t.Fatalf("time as a metric of a time-weighted network: %v, want a config error", err)
	}
}
