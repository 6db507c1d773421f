package compute

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/formats/osmroads/osmroadstest"
	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/earth"
	"github.com/pathflow/pathflow/internal/geoparquet"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// routeRow is one row of a paths table of routes, as read back.
type routeRow struct {
	source, target int32
	trip           string
	cost           int64 // paths.Unreachable for null
	vertices       []int32
	timeMS, length int64 // -1 for null
	lon, lat       []float64
	hasLine        bool
}

// readRoutes reads a paths table of routes with arrow-go and decodes its
// geometry; time and length read -1 where null, or where the table has no
// such column (an input without them).
func readRoutes(t *testing.T, path string) []routeRow {
	t.Helper()
	tbl, _ := readParquet(t, path)
	get := func(name string) []arrow.Array {
		c := column(t, tbl, name)
		if c == nil {
			t.Fatalf("%s: no column %q", path, name)
		}
		return c
	}
	src, dst, cost, verts, tm, ln, geom := get("source"), get("target"), get("cost"), get("vertices"), column(t, tbl, "time"), column(t, tbl, "length"), get("geometry")
	trip := column(t, tbl, "trip")
	var rows []routeRow
	for c := range src {
		for i := range src[c].Len() {
			r := routeRow{source: src[c].(*array.Int32).Value(i), target: dst[c].(*array.Int32).Value(i), cost: paths.Unreachable, timeMS: -1, length: -1}
			if trip != nil {
				r.trip = trip[c].ValueStr(i)
			}
			if cc := cost[c].(*array.Int64); cc.IsValid(i) {
				r.cost = cc.Value(i)
			}
			if l := verts[c].(*array.List); l.IsValid(i) {
				lo, hi := l.ValueOffsets(i)
				r.vertices = append([]int32{}, l.ListValues().(*array.Int32).Int32Values()[lo:hi]...)
			}
			if tm != nil && tm[c].IsValid(i) {
				r.timeMS = tm[c].(*array.Int64).Value(i)
			}
			if ln != nil && ln[c].IsValid(i) {
				r.length = ln[c].(*array.Int64).Value(i)
			}
			if g := geom[c].(*array.Binary); g.IsValid(i) {
				var err error
				if r.lon, r.lat, err = geoparquet.DecodeLineString(g.Value(i)); err != nil {
					t.Fatalf("row %d: %v", len(rows), err)
				}
				r.hasLine = true
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// delawareRoad is the ingested Delaware network as a test reads it back
// from the tables: graph, coordinates, arc metrics and arc geometry.
type delawareRoad struct {
	dir             string
	edges           *graph.EdgeList
	csr             *graph.CSR
	vs              *graph.Vertices
	timeMS, lengthM []int32
	geometry        tables.ArcGeometry
	out             map[int32][]int // arcs by tail
}

func readDelawareRoad(t *testing.T, dir string) *delawareRoad {
	t.Helper()
	files := tables.GraphFilesIn(dir, tables.Parquet)
	e, vs, _, err := tables.ReadGraph(files)
	if err != nil {
		t.Fatal(err)
	}
	timeCol, err := tables.ReadArcColumn(files.Edges, ingest.ColTimeMS)
	if err != nil {
		t.Fatal(err)
	}
	lengthCol, err := tables.ReadArcColumn(files.Edges, ingest.ColLengthM)
	if err != nil {
		t.Fatal(err)
	}
	geo, err := tables.ReadArcGeometry(tables.GeometryFileIn(dir, tables.Parquet), e.M())
	if err != nil {
		t.Fatal(err)
	}
	out := map[int32][]int{}
	for a, u := range e.Src {
		out[u] = append(out[u], a)
	}
	return &delawareRoad{dir: dir, edges: e, csr: graph.BuildCSR(e), vs: vs, timeMS: timeCol.Int32, lengthM: lengthCol.Int32, geometry: geo, out: out}
}

// routeArc is the arc a route takes from u to v, found by scanning every
// arc out of u: the lightest, then the quickest, then the shortest.
func (d *delawareRoad) routeArc(u, v int32) int {
	best := -1
	for a := range d.edges.M() {
		if d.edges.Src[a] != u || d.edges.Dst[a] != v {
			continue
		}
		if best < 0 || d.edges.Weight[a] < d.edges.Weight[best] ||
			(d.edges.Weight[a] == d.edges.Weight[best] && (d.timeMS[a] < d.timeMS[best] ||
				(d.timeMS[a] == d.timeMS[best] && d.lengthM[a] < d.lengthM[best]))) {
			best = a
		}
	}
	return best
}

// carTopSpeedKmh is the highest speed the car profile gives a way
// (maxspeed=none); no Delaware way is tagged faster.
const carTopSpeedKmh = 130

// TestRoutesOnDelaware writes the routes of random path requests on the
// real Delaware network (2016, (c) OpenStreetMap contributors, ODbL) with
// ch and with Dijkstra and checks each against the network: the distance
// is the reference Dijkstra's; time and length are the sums over the arcs
// the path takes; the line starts at the source, ends at the target, and
// its geodesic length is the reported length within 0.5%; a route is at
// least as long as the great circle between its ends and no faster than
// the profile's top speed; ch and Dijkstra write the same rows; the
// request file's order and other column are kept; and compute.paths,
// which reads the backend's parents, gives the same route.
func TestRoutesOnDelaware(t *testing.T) {
	osmroadstest.Extract(t, osmroadstest.Delaware)
	dir, _ := ingestTo(t, "-dataset", "delaware-osm", "-hierarchy", "on")
	road := readDelawareRoad(t, dir)
	rng := rand.New(rand.NewPCG(31, 1))
	n := int(road.edges.N)
	var requests strings.Builder
	requests.WriteString("source,target,trip\n")
	type pair struct{ s, t int32 }
	var pairs []pair
	for range 25 {
		s := int32(rng.IntN(n))
		for range 8 {
			pairs = append(pairs, pair{s, int32(rng.IntN(n))})
		}
		pairs = append(pairs, pair{s, s})
	}
	pairs = append(pairs, pairs[3]) // a request listed twice
	for i, p := range pairs {
		fmt.Fprintf(&requests, "%d,%d,trip%d\n", p.s, p.t, i)
	}
	file := stagetest.WriteFile(t, "requests.csv", requests.String())

	outs, files := map[string][]routeRow{}, map[string]string{}
	for _, alg := range []string{"ch", "dijkstra"} {
		out := filepath.Join(t.TempDir(), alg)
		runCompute(t, loadCompute(t, "", "-input", dir, "-out", out, "-backend", "cpu", "-algorithm", alg, "-path-pairs", file))
		files[alg] = filepath.Join(out, output.PathsName+".parquet")
		outs[alg] = readRoutes(t, files[alg])
	}
	rows := outs["ch"]
	if len(rows) != len(pairs) {
		t.Fatalf("%d rows for %d requests", len(rows), len(pairs))
	}
	ref := map[int32][]int64{}
	reached := 0
	for i, r := range rows {
		p := pairs[i]
		if r.source != p.s || r.target != p.t || r.trip != fmt.Sprintf("trip%d", i) {
			t.Fatalf("row %d is %d -> %d (%s), the file's is %d -> %d", i, r.source, r.target, r.trip, p.s, p.t)
		}
		if ref[p.s] == nil {
			ref[p.s] = refTree(road.csr, p.s).Dist
		}
		if want := ref[p.s][p.t]; r.cost != want {
			t.Fatalf("row %d: cost %d, reference Dijkstra %d", i, r.cost, want)
		}
		if r.cost == paths.Unreachable {
			if r.vertices != nil || r.hasLine || r.timeMS != -1 || r.length != -1 {
				t.Errorf("row %d: unreachable with vertices %v, line %v, time %d, length %d", i, r.vertices, r.hasLine, r.timeMS, r.length)
			}
			continue
		}
		reached++
		checkRoute(t, road, i, r)
		if d := outs["dijkstra"][i]; fmt.Sprint(d) != fmt.Sprint(r) {
			t.Errorf("row %d: dijkstra wrote %+v, ch %+v", i, d, r)
		}
	}
	if reached < len(rows)/2 {
		t.Fatalf("only %d of %d requests reached their target", reached, len(rows))
	}

	// compute.paths reads the backend's parents: the same routes.
	var config []string
	for _, p := range pairs[:9] {
		config = append(config, fmt.Sprintf("%d:%d", p.s, p.t))
	}
	out := filepath.Join(t.TempDir(), "paths")
	runCompute(t, loadCompute(t, "", "-input", dir, "-out", out, "-backend", "cpu", "-distances=false",
		"-sources", fmt.Sprint(pairs[0].s), "-paths", strings.Join(config, ",")))
	for i, r := range readRoutes(t, filepath.Join(out, output.PathsName+".parquet")) {
		want := rows[i]
		want.trip = ""
		if fmt.Sprint(r) != fmt.Sprint(want) {
			t.Errorf("compute.paths row %d: %+v, path request: %+v", i, r, want)
		}
	}

	t.Run("duckdb", func(t *testing.T) {
		duckdbtest.Require(t)
		file := "read_parquet(" + duckdbtest.SQLString(files["ch"]) + ")"
		res := duckdbtest.Query(t,
			"SELECT column_type FROM (DESCRIBE SELECT geometry FROM "+file+")",
			"SELECT trip, geometry::VARCHAR, time, length FROM "+file,
		)
		if got := duckdbtest.Text(res[0].Rows[0][0]); got != "GEOMETRY('OGC:CRS84')" {
			t.Errorf("DuckDB types the geometry column %s, want GEOMETRY('OGC:CRS84')", got)
		}
		if len(res[1].Rows) != len(rows) {
			t.Fatalf("DuckDB reads %d rows, want %d", len(res[1].Rows), len(rows))
		}
		for i, got := range res[1].Rows {
			r := rows[i]
			want := "NULL"
			if r.hasLine {
				want = fmt.Sprintf("LINESTRING (%s %s, ", strconv.FormatFloat(r.lon[0], 'f', -1, 64), strconv.FormatFloat(r.lat[0], 'f', -1, 64))
			}
			if duckdbtest.Text(got[0]) != r.trip || !strings.HasPrefix(duckdbtest.Text(got[1])+", ", want) {
				t.Errorf("row %d: DuckDB reads %s %.60s, want %s %s...", i, duckdbtest.Text(got[0]), duckdbtest.Text(got[1]), r.trip, want)
			}
		}
	})
}

// checkRoute checks one reached route against the network.
func checkRoute(t *testing.T, road *delawareRoad, i int, r routeRow) {
	t.Helper()
	if len(r.vertices) == 0 || r.vertices[0] != r.source || r.vertices[len(r.vertices)-1] != r.target {
		t.Fatalf("row %d: vertices %v do not run from %d to %d", i, r.vertices, r.source, r.target)
	}
	var cost, timeMS, length int64
	var lon, lat []float64
	lon, lat = append(lon, road.vs.Lon(r.source)), append(lat, road.vs.Lat(r.source))
	for k := 1; k < len(r.vertices); k++ {
		a := road.routeArc(r.vertices[k-1], r.vertices[k])
		if a < 0 {
			t.Fatalf("row %d: no arc %d -> %d", i, r.vertices[k-1], r.vertices[k])
		}
		cost += int64(road.edges.Weight[a])
		timeMS += int64(road.timeMS[a])
		length += int64(road.lengthM[a])
		x, y := road.geometry.Points(a)
		for j := range x {
			lon, lat = append(lon, float64(x[j])/graph.UnitsPerDegree), append(lat, float64(y[j])/graph.UnitsPerDegree)
		}
		lon, lat = append(lon, road.vs.Lon(r.vertices[k])), append(lat, road.vs.Lat(r.vertices[k]))
	}
	if cost != r.cost || timeMS != r.timeMS || length != r.length {
		t.Errorf("row %d: cost %d, time %d, length %d; the arcs of its vertices sum to %d, %d, %d", i, r.cost, r.timeMS, r.length, cost, timeMS, length)
	}
	if len(lon) == 1 { // a route of one vertex is written as that point twice
		lon, lat = append(lon, lon[0]), append(lat, lat[0])
	}
	if fmt.Sprint(lon, lat) != fmt.Sprint(r.lon, r.lat) {
		t.Fatalf("row %d: the line has %d points, the arcs' %d", i, len(r.lon), len(lon))
	}
	end := len(r.lon) - 1
	if r.lon[0] != road.vs.Lon(r.source) || r.lat[0] != road.vs.Lat(r.source) || r.lon[end] != road.vs.Lon(r.target) || r.lat[end] != road.vs.Lat(r.target) {
		t.Errorf("row %d: the line runs from %v,%v to %v,%v", i, r.lon[0], r.lat[0], r.lon[end], r.lat[end])
	}
	geodesic := 0.0
	for k := 1; k <= end; k++ {
		geodesic += earth.Distance(r.lon[k-1], r.lat[k-1], r.lon[k], r.lat[k])
	}
	// Each arc's length is rounded to the metre: half a metre per arc.
	slack := 0.5 * float64(len(r.vertices)-1)
	if math.Abs(geodesic-float64(r.length)) > max(0.005*geodesic, slack) {
		t.Errorf("row %d: the line is %.1f m long, the route %d m", i, geodesic, r.length)
	}
	if direct := earth.Distance(r.lon[0], r.lat[0], r.lon[end], r.lat[end]); float64(r.length)+slack < direct {
		t.Errorf("row %d: the route is %d m long, its ends %.1f m apart", i, r.length, direct)
	}
	if fastest := float64(r.length) / (carTopSpeedKmh / 3.6) * 1000; float64(r.timeMS)+0.5*float64(len(r.vertices)) < fastest-slack {
		t.Errorf("row %d: %d m in %d ms, faster than %d km/h", i, r.length, r.timeMS, carTopSpeedKmh)
	}
}

// pathTableRows reads a paths table of vertex lists as "source target
// [tag] cost vertices" lines, in file order.
func pathTableRows(t *testing.T, path string) []string {
	t.Helper()
	tbl, _ := readParquet(t, path)
	var rows []string
	src, dst, cost, verts, tag := column(t, tbl, "source"), column(t, tbl, "target"), column(t, tbl, "cost"), column(t, tbl, "vertices"), column(t, tbl, "tag")
	for c := range src {
		for i := range src[c].Len() {
			line := src[c].ValueStr(i) + " " + dst[c].ValueStr(i)
			if tag != nil {
				line += " " + tag[c].ValueStr(i)
			}
			rows = append(rows, line+" "+cost[c].ValueStr(i)+" "+verts[c].ValueStr(i))
		}
	}
	return rows
}

// TestPathRequestsOnRome99 checks path requests on an input without
// coordinates: the table of vertex lists, a row per request in file order
// with the file's other column, each row the one compute.paths writes
// from the backend's parents.
func TestPathRequestsOnRome99(t *testing.T) {
	rome, ok := datasets.MirrorFile("rome99.gr")
	if !ok {
		t.Skipf("rome99.gr not in %s (set %s)", datasets.MirrorDir(), datasets.MirrorEnv)
	}
	rng := rand.New(rand.NewPCG(99, 1))
	var file strings.Builder
	file.WriteString("source,target,tag\n")
	var config []string
	for k := range 40 {
		s, v := rng.IntN(5)*700, rng.IntN(3353)
		fmt.Fprintf(&file, "%d,%d,r%d\n", s, v, k)
		config = append(config, fmt.Sprintf("%d:%d", s, v))
	}
	requests := stagetest.WriteFile(t, "requests.csv", file.String())
	out, ref := filepath.Join(t.TempDir(), "requests"), filepath.Join(t.TempDir(), "paths")
	runCompute(t, loadCompute(t, "", "-input", rome, "-out", out, "-backend", "cpu", "-path-pairs", requests))
	runCompute(t, loadCompute(t, "", "-input", rome, "-out", ref, "-backend", "cpu", "-distances=false",
		"-sources", "0,700,1400,2100,2800", "-paths", strings.Join(config, ",")))
	got, want := pathTableRows(t, filepath.Join(out, output.PathsName+".parquet")), pathTableRows(t, filepath.Join(ref, output.PathsName+".parquet"))
	if len(got) != 40 || len(want) != 40 {
		t.Fatalf("%d rows, compute.paths %d; want 40", len(got), len(want))
	}
	for i := range got {
		s, tail, _ := strings.Cut(got[i], " ")
		d, tail, _ := strings.Cut(tail, " ")
		tag, tail, _ := strings.Cut(tail, " ")
		if tag != fmt.Sprintf("r%d", i) || s+" "+d+" "+tail != want[i] {
			t.Errorf("row %d: %s, compute.paths wrote %s", i, got[i], want[i])
		}
	}
}

// TestRoutesFromAMappedGeographicOutput: an ingest output of geographic
// vertices whose arcs have no points of their own (DIMACS with a .co in
// millionths of a degree) keeps its reload file for a run that writes
// routes (input.TablesForArcRows), and its routes are the straight lines
// through the path's vertices, with no time or length to sum.
func TestRoutesFromAMappedGeographicOutput(t *testing.T) {
	gr := stagetest.WriteFile(t, "tri.gr", "p sp 3 4\na 1 2 10\na 2 3 10\na 3 1 10\na 2 1 10\n")
	co := stagetest.WriteFile(t, "tri.co", "p aux sp co 3\nv 1 -75500000 39700000\nv 2 -75510000 39700000\nv 3 -75510000 39710000\n")
	dir, _ := ingestTo(t, "-input", gr, "-coordinates", co)
	g, err := input.LoadTable(dir, input.TablesForArcRows)
	if err != nil {
		t.Fatal(err)
	}
	if g.CSR == nil {
		t.Error("an output without a geometry table was read from its tables, not mapped")
	}
	out := filepath.Join(t.TempDir(), "out")
	runCompute(t, loadCompute(t, "", "-input", dir, "-paths", "0:2", "-out", out, "-backend", "cpu"))
	rows := readRoutes(t, filepath.Join(out, output.PathsName+".parquet"))
	if len(rows) != 1 {
		t.Fatalf("%d routes, want 1", len(rows))
	}
	r := rows[0]
	wantLon, wantLat := []float64{-75.5, -75.51, -75.51}, []float64{39.7, 39.7, 39.71}
	if r.cost != 20 || !slices.Equal(r.vertices, []int32{0, 1, 2}) || !slices.Equal(r.lon, wantLon) || !slices.Equal(r.lat, wantLat) {
		t.Errorf("route %+v, want cost 20 through 0, 1, 2 at %v, %v", r, wantLon, wantLat)
	}
	if r.timeMS != -1 || r.length != -1 {
		t.Errorf("time %d, length %d: the input has neither", r.timeMS, r.length)
	}
}
