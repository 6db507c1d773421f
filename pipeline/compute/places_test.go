package compute

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/formats/osmroads/osmroadstest"
	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// placeRows reads a table of places as "origin destination distance
// reason" lines, in file order.
func placeRows(t *testing.T, out string) []string {
	t.Helper()
	res := duckdbtest.Query(t, fmt.Sprintf("SELECT origin_id, destination_id, distance, reason FROM read_parquet(%s)",
		duckdbtest.SQLString(filepath.Join(out, output.DistancesDir, "*.parquet"))))[0]
	var rows []string
	for _, r := range res.Rows {
		rows = append(rows, fmt.Sprintf("%s %s %s %s", duckdbtest.Text(r[0]), duckdbtest.Text(r[1]), duckdbtest.Text(r[2]), duckdbtest.Text(r[3])))
	}
	return rows
}

// TestPlacesOnAHandMadeStreet snaps places onto one street of three
// nodes 0.001 degree apart on the equator (111.19508 m each, at 36 km/h:
// 11,119.5 ms), read straight from an OpenStreetMap file, and checks the
// answers worked out by hand: the trip between two places on one street
// follows it, both ways on a two-way street and only forward on a one-way
// one; a place beyond the snap distance gets null rows and its reason;
// string and integer ids keep their types and the rows their order,
// duplicates included.
func TestPlacesOnAHandMadeStreet(t *testing.T) {
	duckdbtest.Require(t)
	street := func(oneway string) string {
		return "<?xml version='1.0'?>\n<osm version=\"0.6\">\n" +
			" <node id=\"1\" lat=\"0\" lon=\"0\"/>\n <node id=\"2\" lat=\"0\" lon=\"0.001\"/>\n <node id=\"3\" lat=\"0\" lon=\"0.002\"/>\n" +
			" <way id=\"10\"><nd ref=\"1\"/><nd ref=\"2\"/><nd ref=\"3\"/><tag k=\"highway\" v=\"residential\"/><tag k=\"maxspeed\" v=\"36\"/>" + oneway + "</way>\n</osm>\n"
	}
	origins := stagetest.WriteFile(t, "origins.csv", "id,lon,lat\na,0.0005,0.0001\nb,0.0015,-0.0001\nfar,0.5,0.5\na,0.0005,0.0001\n")
	destinations := stagetest.WriteFile(t, "destinations.csv", "id,lon,lat\n10,0.0005,0\n20,0.0015,0\n")
	step := "11120" // 0.001 degree at 36 km/h, rounded: 11119.5 ms
	for _, tc := range []struct {
		name, oneway string
		want         []string
	}{
		{"two-way", "", []string{"a 10 0 NULL", "a 20 " + step + " NULL", "b 10 " + step + " NULL", "b 20 0 NULL"}},
		{"one-way", "<tag k=\"oneway\" v=\"yes\"/>", []string{"a 10 0 NULL", "a 20 " + step + " NULL", "b 10 NULL no route", "b 20 0 NULL"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			osm := stagetest.WriteFile(t, "street.osm", street(tc.oneway))
			out := filepath.Join(t.TempDir(), "out")
			runCompute(t, loadCompute(t, "", "-input", osm, "-origins", origins, "-destinations", destinations, "-out", out, "-backend", "cpu", "-snap-max-metres", "100"))
			got := placeRows(t, out)
			want := append(append([]string{}, tc.want...), "far 10 NULL origin: ", "far 20 NULL origin: ")
			want = append(want, tc.want[:2]...) // the repeated origin a
			if len(got) != len(want) {
				t.Fatalf("rows %q, want %q", got, want)
			}
			for i := range want {
				if !closeRow(got[i], want[i]) {
					t.Errorf("row %d: %q, want %q", i, got[i], want[i])
				}
			}
			types := duckdbtest.Query(t, "DESCRIBE SELECT * FROM read_parquet("+duckdbtest.SQLString(filepath.Join(out, output.DistancesDir, "*.parquet"))+")")[0]
			if duckdbtest.Text(types.Rows[0][1]) != "VARCHAR" || duckdbtest.Text(types.Rows[1][1]) != "BIGINT" {
				t.Errorf("id columns %v", types.Rows)
			}
		})
	}
}

// closeRow compares a row with the expected one, distances to within a
// millisecond (the hand value 11,119.5 rounds either way depending on the
// last bit of the coordinates) and reasons by their start.
func closeRow(got, want string) bool {
	g, w := strings.SplitN(got, " ", 4), strings.SplitN(want, " ", 4)
	if g[0] != w[0] || g[1] != w[1] || !strings.HasPrefix(g[3], w[3]) {
		return false
	}
	if g[2] == w[2] {
		return true
	}
	a, err1 := strconv.ParseInt(g[2], 10, 64)
	b, err2 := strconv.ParseInt(w[2], 10, 64)
	return err1 == nil && err2 == nil && math.Abs(float64(a-b)) <= 1
}

// TestPlacesOnDelaware answers a table of places on the real Delaware
// network ((c) OpenStreetMap contributors, ODbL) from its ingest output:
// places on vertices and places between them. ch and Dijkstra give the
// same table; a place exactly on a vertex answers as that vertex does in
// a vertex table; and DuckDB joins the table to the user's own file of
// places by id.
func TestPlacesOnDelaware(t *testing.T) {
	duckdbtest.Require(t)
	osmroadstest.Extract(t, osmroadstest.Delaware)
	dir, m := ingestTo(t, "-dataset", "delaware-osm", "-osm-components", "largest")
	_, vs, _, err := tables.ReadGraph(tables.GraphFilesIn(dir, tables.Parquet))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	var vertexIDs []int
	var csv strings.Builder
	csv.WriteString("id,lon,lat\n")
	for i := range 40 {
		v := rng.IntN(int(m.N))
		lon, lat := vs.Lon(int32(v)), vs.Lat(int32(v))
		if i%2 == 1 { // between vertices: up to 50 m off a vertex
			lon, lat = lon+(rng.Float64()-0.5)*0.001, lat+(rng.Float64()-0.5)*0.001
		} else {
			vertexIDs = append(vertexIDs, v)
		}
		fmt.Fprintf(&csv, "%d,%.7f,%.7f\n", 5000+i, lon, lat)
	}
	places := stagetest.WriteFile(t, "places.csv", csv.String())
	tablesOf, outs := map[string][]string{}, map[string]string{}
	for _, alg := range []string{"ch", "dijkstra"} {
		out := filepath.Join(t.TempDir(), alg)
		outs[alg] = out
		runCompute(t, loadCompute(t, "", "-input", dir, "-origins", places, "-destinations", places, "-out", out, "-backend", "cpu", "-algorithm", alg))
		tablesOf[alg] = placeRows(t, out)
	}
	if len(tablesOf["ch"]) != 40*40 || strings.Join(tablesOf["ch"], "\n") != strings.Join(tablesOf["dijkstra"], "\n") {
		t.Fatalf("ch and dijkstra disagree (%d and %d rows)", len(tablesOf["ch"]), len(tablesOf["dijkstra"]))
	}
	// The places on vertices (even rows) against a vertex table.
	ids := make([]string, len(vertexIDs))
	for i, v := range vertexIDs {
		ids[i] = strconv.Itoa(v)
	}
	vertexOut := filepath.Join(t.TempDir(), "vertices")
	runCompute(t, loadCompute(t, "", "-input", dir, "-sources", strings.Join(dedupe(ids), ","), "-targets", strings.Join(dedupe(ids), ","), "-out", vertexOut, "-backend", "cpu", "-parents=false"))
	vertexDist := map[[2]string]string{}
	for _, r := range duckdbtest.Query(t, "SELECT source, vertex, distance FROM read_parquet("+duckdbtest.SQLString(filepath.Join(vertexOut, output.DistancesDir, "*.parquet"))+")")[0].Rows {
		vertexDist[[2]string{duckdbtest.Text(r[0]), duckdbtest.Text(r[1])}] = duckdbtest.Text(r[2])
	}
	for _, row := range tablesOf["ch"] {
		f := strings.Fields(row)
		o, _ := strconv.Atoi(f[0])
		d, _ := strconv.Atoi(f[1])
		if (o-5000)%2 != 0 || (d-5000)%2 != 0 {
			continue
		}
		want := vertexDist[[2]string{ids[(o-5000)/2], ids[(d-5000)/2]}]
		if f[2] != want {
			t.Errorf("places %d and %d on vertices %s and %s: %s, the vertex table says %s", o, d, ids[(o-5000)/2], ids[(d-5000)/2], f[2], want)
		}
	}
	// The user's own file, joined by id.
	names := stagetest.WriteFile(t, "names.csv", "id,name\n5000,depot\n5002,store\n")
	joined := duckdbtest.Query(t, fmt.Sprintf("SELECT n.name, count(*) FROM read_parquet(%s) d JOIN read_csv(%s) n ON n.id = d.origin_id GROUP BY n.name ORDER BY n.name",
		duckdbtest.SQLString(filepath.Join(outs["ch"], output.DistancesDir, "*.parquet")), duckdbtest.SQLString(names)))[0]
	if got := fmt.Sprint(joined.Rows); got != "[[depot 40] [store 40]]" {
		t.Errorf("joined to the user's file: %s", got)
	}
}

// dedupe keeps the first of each id.
func dedupe(ids []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// TestTripsOnDelaware answers a list of trips between places
// (compute.place_pairs) on the real Delaware network and checks every
// trip against the cell of a table of the same places: the same answer,
// in file order, keyed by the trip's id under the file's own column
// name, the file's other column carried beside it (an empty field null),
// a trip listed twice answered twice, and a trip from a place off the map
// null with its reason.
func TestTripsOnDelaware(t *testing.T) {
	duckdbtest.Require(t)
	rng := rand.New(rand.NewPCG(9, 9))
	dir, ps := delawareWithPlaces(t, 30, rng)
	var table strings.Builder
	table.WriteString("id,lon,lat\n")
	for i := range ps {
		fmt.Fprintf(&table, "%d,%.7f,%.7f\n", i, ps[i].lon, ps[i].lat)
	}
	var trips strings.Builder
	trips.WriteString("ID,Origin_Lon,origin_lat,mode,to_lon,to_lat\n")
	var want []string // "trip origin destination"
	for k := range 200 {
		o, d := rng.IntN(len(ps)), rng.IntN(len(ps))
		if k == 7 { // the same trip again
			o, d = 3, 4
		}
		if k == 3 {
			o, d = 3, 4
		}
		fmt.Fprintf(&trips, "t%d,%.7f,%.7f,mode%d,%.7f,%.7f\n", k, ps[o].lon, ps[o].lat, k%3, ps[d].lon, ps[d].lat)
		want = append(want, fmt.Sprintf("t%d %d %d", k, o, d))
	}
	trips.WriteString("off,-70.0,39.0,,-75.5,39.1\n")
	placesFile := stagetest.WriteFile(t, "places.csv", table.String())
	tripsFile := stagetest.WriteFile(t, "trips.csv", trips.String())

	tableOut := filepath.Join(t.TempDir(), "table")
	runCompute(t, loadCompute(t, "", "-input", dir, "-origins", placesFile, "-destinations", placesFile, "-out", tableOut, "-backend", "cpu"))
	cell := map[[2]string]string{}
	for _, row := range placeRows(t, tableOut) {
		f := strings.Fields(row)
		cell[[2]string{f[0], f[1]}] = f[2]
	}
	tripsOut := filepath.Join(t.TempDir(), "trips")
	runCompute(t, loadCompute(t, "", "-input", dir, "-place-pairs", tripsFile, "-out", tripsOut, "-backend", "cpu", "-algorithm", "ch"))
	res := duckdbtest.Query(t, fmt.Sprintf("SELECT ID, distance, reason, mode FROM read_parquet(%s)", duckdbtest.SQLString(filepath.Join(tripsOut, output.DistancesDir, "*.parquet"))))[0]
	if res.Columns[0] != "ID" {
		t.Errorf("the id column is %q, the file named it ID", res.Columns[0])
	}
	if len(res.Rows) != len(want)+1 {
		t.Fatalf("%d rows for %d trips", len(res.Rows), len(want)+1)
	}
	for k, w := range want {
		f := strings.Fields(w)
		got := res.Rows[k]
		if duckdbtest.Text(got[0]) != f[0] || duckdbtest.Text(got[1]) != cell[[2]string{f[1], f[2]}] || duckdbtest.Text(got[3]) != fmt.Sprintf("mode%d", k%3) {
			t.Errorf("trip %s from %s to %s: %v, the table of places says %s", f[0], f[1], f[2], got, cell[[2]string{f[1], f[2]}])
		}
	}
	last := res.Rows[len(want)]
	if duckdbtest.Text(last[0]) != "off" || last[1] != nil || !strings.HasPrefix(duckdbtest.Text(last[2]), "origin: ") || last[3] != nil {
		t.Errorf("the trip from off the map: %v", last)
	}
}

// lonLat is a place's position in degrees.
type lonLat struct{ lon, lat float64 }

// delawareWithPlaces ingests the real Delaware network (its largest
// component) into a folder of its own and returns it with n places drawn
// by rng, each within about 50 m of a random vertex.
func delawareWithPlaces(t *testing.T, n int, rng *rand.Rand) (string, []lonLat) {
	t.Helper()
	osmroadstest.Extract(t, osmroadstest.Delaware)
	dir, m := ingestTo(t, "-dataset", "delaware-osm", "-osm-components", "largest")
	_, vs, _, err := tables.ReadGraph(tables.GraphFilesIn(dir, tables.Parquet))
	if err != nil {
		t.Fatal(err)
	}
	ps := make([]lonLat, n)
	for i := range ps {
		v := int32(rng.IntN(int(m.N)))
		ps[i] = lonLat{vs.Lon(v) + (rng.Float64()-0.5)*0.001, vs.Lat(v) + (rng.Float64()-0.5)*0.001}
	}
	return dir, ps
}
