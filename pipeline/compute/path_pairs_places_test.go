package compute

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/earth"
	"github.com/pathflow/pathflow/internal/geoparquet"
	"github.com/pathflow/pathflow/internal/places"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// tripRouteRow is one row of a table of routes between places, as read
// back; -1 for a null number.
type tripRouteRow struct {
	id, mode                 string
	distance, timeMS, length int64
	reason                   string
	lon, lat                 []float64
}

// readTripRoutes reads the routes of a list of trips with arrow-go and
// decodes their geometry.
func readTripRoutes(t *testing.T, path string) []tripRouteRow {
	t.Helper()
	tbl, _ := readParquet(t, path)
	get := func(name string) []arrow.Array {
		c := column(t, tbl, name)
		if c == nil {
			t.Fatalf("%s: no column %q (schema %s)", path, name, tbl.Schema())
		}
		return c
	}
	id, mode, dist, tm, ln, reason, geom := get("ID"), get("mode"), get("distance"), get("time"), get("length"), get("reason"), get("geometry")
	num := func(a arrow.Array, i int) int64 {
		if a.IsNull(i) {
			return -1
		}
		return a.(*array.Int64).Value(i)
	}
	var rows []tripRouteRow
	for c := range id {
		for i := range id[c].Len() {
			r := tripRouteRow{id: id[c].ValueStr(i), mode: mode[c].ValueStr(i), distance: num(dist[c], i), timeMS: num(tm[c], i), length: num(ln[c], i), reason: reason[c].ValueStr(i)}
			if g := geom[c].(*array.Binary); g.IsValid(i) {
				var err error
				if r.lon, r.lat, err = geoparquet.DecodeLineString(g.Value(i)); err != nil {
					t.Fatalf("row %d: %v", len(rows), err)
				}
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// snappedEnds reads a points table's snapped positions: origins then
// destinations, in file order, NaN where a place did not snap.
func snappedEnds(t *testing.T, path string) (lon, lat []float64) {
	t.Helper()
	tbl, _ := readParquet(t, path)
	lons, lats := column(t, tbl, places.ColSnappedLon), column(t, tbl, places.ColSnappedLat)
	for c := range lons {
		for i := range lons[c].Len() {
			x, y := math.NaN(), math.NaN()
			if lons[c].IsValid(i) {
				x, y = lons[c].(*array.Float64).Value(i), lats[c].(*array.Float64).Value(i)
			}
			lon, lat = append(lon, x), append(lat, y)
		}
	}
	return lon, lat
}

// TestTripRoutesOnDelaware gives a list of trips between places on the
// real Delaware network (2016, (c) OpenStreetMap contributors, ODbL) to
// compute.path_pairs, with ch and with Dijkstra, and checks every route
// against the trips' table of the same file (compute.place_pairs) and
// its points table: the same distance, and a time equal to it (the
// weight is the travel time); a line from the origin's snapped position
// to the destination's, whose geodesic length is the reported length
// within 0.5% (or half a metre per arc); a route at least as long as the
// great circle between its ends; the file's order, id and other column
// kept; the trip from off the map null with the table's reason; and ch
// writing what Dijkstra writes. Among the trips are ones between places
// a few metres apart, which stay on one stretch of road, and a trip from
// a place to itself.
func TestTripRoutesOnDelaware(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 31))
	dir, ps := delawareWithPlaces(t, 40, rng)
	var trips strings.Builder
	trips.WriteString("ID,origin_lon,origin_lat,mode,destination_lon,destination_lat\n")
	n := 0
	add := func(a, b lonLat) {
		fmt.Fprintf(&trips, "t%d,%.7f,%.7f,mode%d,%.7f,%.7f\n", n, a.lon, a.lat, n%3, b.lon, b.lat)
		n++
	}
	for range 120 {
		add(ps[rng.IntN(len(ps))], ps[rng.IntN(len(ps))])
	}
	for k := range 20 { // neighbours: most snap onto one stretch
		p := ps[k]
		add(p, lonLat{p.lon + (rng.Float64()-0.5)*0.0003, p.lat + (rng.Float64()-0.5)*0.0003})
	}
	add(ps[5], ps[5])
	trips.WriteString("off,-70.0,39.0,,-75.5,39.1\n")
	file := stagetest.WriteFile(t, "trips.csv", trips.String())

	tableOut := filepath.Join(t.TempDir(), "table")
	runCompute(t, loadCompute(t, "", "-input", dir, "-place-pairs", file, "-out", tableOut, "-backend", "cpu"))
	table := map[string]string{} // ID -> distance
	reasons := map[string]string{}
	for _, part := range partFiles(t, filepath.Join(tableOut, output.DistancesDir)) {
		tbl, _ := readParquet(t, part)
		ids, dist, reason := column(t, tbl, "ID"), column(t, tbl, "distance"), column(t, tbl, "reason")
		for c := range ids {
			for i := range ids[c].Len() {
				table[ids[c].ValueStr(i)], reasons[ids[c].ValueStr(i)] = dist[c].ValueStr(i), reason[c].ValueStr(i)
			}
		}
	}
	lon, lat := snappedEnds(t, filepath.Join(tableOut, PointsName+".parquet"))
	trip := n + 1
	if len(lon) != 2*trip {
		t.Fatalf("%d snapped places for %d trips", len(lon), trip)
	}

	outs, files := map[string][]tripRouteRow{}, map[string]string{}
	for _, alg := range []string{"ch", "dijkstra"} {
		out := filepath.Join(t.TempDir(), alg)
		runCompute(t, loadCompute(t, "", "-input", dir, "-out", out, "-backend", "cpu", "-algorithm", alg, "-path-pairs", file))
		files[alg] = filepath.Join(out, output.PathsName+".parquet")
		outs[alg] = readTripRoutes(t, files[alg])
	}
	rows := outs["ch"]
	if len(rows) != trip {
		t.Fatalf("%d rows for %d trips", len(rows), trip)
	}
	straight := 0
	worstGap, worstShare := 0.0, 0.0
	for i, r := range rows {
		id := fmt.Sprintf("t%d", i)
		if i == n {
			id = "off"
		}
		if r.id != id || (i < n && r.mode != fmt.Sprintf("mode%d", i%3)) {
			t.Fatalf("row %d is %s (%s), the file's is %s", i, r.id, r.mode, id)
		}
		if d := outs["dijkstra"][i]; fmt.Sprint(d) != fmt.Sprint(r) {
			t.Errorf("row %d: dijkstra wrote %+v, ch %+v", i, d, r)
		}
		if table[id] == "(null)" {
			if r.distance != -1 || r.timeMS != -1 || r.length != -1 || r.lon != nil || r.reason != reasons[id] || !strings.HasPrefix(r.reason, "origin: ") {
				t.Errorf("row %d: the table has no route (%s), the route is %+v", i, reasons[id], r)
			}
			continue
		}
		if strconv.FormatInt(r.distance, 10) != table[id] || r.timeMS != r.distance {
			t.Errorf("row %d: distance %d, time %d; the trips' table says %s", i, r.distance, r.timeMS, table[id])
		}
		if r.lon == nil || r.reason != "(null)" {
			t.Fatalf("row %d: no line (reason %s)", i, r.reason)
		}
		end := len(r.lon) - 1
		for _, c := range []struct{ got, want float64 }{{r.lon[0], lon[i]}, {r.lat[0], lat[i]}, {r.lon[end], lon[trip+i]}, {r.lat[end], lat[trip+i]}} {
			if math.Abs(c.got-c.want) > 1e-7 {
				t.Errorf("row %d: the line runs from %v,%v to %v,%v; the places snapped to %v,%v and %v,%v", i, r.lon[0], r.lat[0], r.lon[end], r.lat[end], lon[i], lat[i], lon[trip+i], lat[trip+i])
				break
			}
		}
		geodesic := 0.0
		for k := 1; k <= end; k++ {
			geodesic += earth.Distance(r.lon[k-1], r.lat[k-1], r.lon[k], r.lat[k])
		}
		// Each arc's length is rounded to the metre: half a metre per
		// arc, the points of an arc counted as one each at most.
		slack := 1.5
		if gap := math.Abs(geodesic - float64(r.length)); gap > worstGap {
			worstGap, worstShare = gap, gap/max(geodesic, 1)
		}
		if math.Abs(geodesic-float64(r.length)) > max(0.005*geodesic, slack) {
			t.Errorf("row %d: the line is %.1f m long, the route %d m", i, geodesic, r.length)
		}
		if direct := earth.Distance(r.lon[0], r.lat[0], r.lon[end], r.lat[end]); float64(r.length)+slack < direct {
			t.Errorf("row %d: the route is %d m long, its ends %.1f m apart", i, r.length, direct)
		}
		if len(r.lon) <= 3 {
			straight++
		}
	}
	if straight == 0 {
		t.Errorf("no trip stayed on one stretch of road")
	}

	t.Logf("%d trips, %d on one stretch, largest gap between line and length %.2f m (%.3f%%)", trip, straight, worstGap, 100*worstShare)

	t.Run("duckdb", func(t *testing.T) {
		duckdbtest.Require(t)
		res := duckdbtest.Query(t, "SELECT ID, geometry::VARCHAR, time FROM read_parquet("+duckdbtest.SQLString(files["ch"])+")")[0]
		if len(res.Rows) != len(rows) {
			t.Fatalf("DuckDB reads %d rows, want %d", len(res.Rows), len(rows))
		}
		for i, got := range res.Rows {
			r := rows[i]
			if r.lon == nil {
				if got[1] != nil || got[2] != nil {
					t.Errorf("row %d: DuckDB reads %v for a trip without a route", i, got)
				}
				continue
			}
			var points []string
			for k := range r.lon {
				points = append(points, strconv.FormatFloat(r.lon[k], 'f', -1, 64)+" "+strconv.FormatFloat(r.lat[k], 'f', -1, 64))
			}
			if len(points) == 1 {
				points = append(points, points[0])
			}
			want := "LINESTRING (" + strings.Join(points, ", ") + ")"
			if duckdbtest.Text(got[0]) != r.id || duckdbtest.Text(got[1]) != want || duckdbtest.Text(got[2]) != strconv.FormatInt(r.timeMS, 10) {
				t.Errorf("row %d: DuckDB reads %s %.80s time %s, want %s %.80s time %d", i,
					duckdbtest.Text(got[0]), duckdbtest.Text(got[1]), duckdbtest.Text(got[2]), r.id, want, r.timeMS)
			}
		}
	})
}
