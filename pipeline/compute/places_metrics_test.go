package compute

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// placeAnswer is a trip's or a cell's distance and metric as read back,
// -1 for null, with the reason.
type placeAnswer struct {
	distance, metric int64
	reason           string
}

// readPlaceAnswers reads a table of places or of trips with its metric
// column name, keyed by the key columns' values joined by a space, in
// file order, checking the metric's unit and that it is null exactly
// where the distance is.
func readPlaceAnswers(t *testing.T, out, metric, unit string, keys ...string) (order []string, answers map[string]placeAnswer) {
	t.Helper()
	answers = map[string]placeAnswer{}
	for _, part := range partFiles(t, filepath.Join(out, output.DistancesDir)) {
		tbl, _ := readParquet(t, part)
		idx := tbl.Schema().FieldIndices(metric)
		if len(idx) != 1 {
			t.Fatalf("%s: no column %q in %s", part, metric, tbl.Schema())
		}
		if got, _ := tbl.Schema().Field(idx[0]).Metadata.GetValue(tables.FieldUnit); got != unit {
			t.Fatalf("%s: %q has unit %q, want %q", part, metric, got, unit)
		}
		if d := tbl.Schema().FieldIndices("distance"); len(d) != 1 || d[0]+1 != idx[0] {
			t.Fatalf("%s: %q does not follow distance in %s", part, metric, tbl.Schema())
		}
		keyCols := make([][]arrowValueStr, len(keys))
		for k, name := range keys {
			for _, c := range column(t, tbl, name) {
				keyCols[k] = append(keyCols[k], c)
			}
		}
		dist, met, reason := column(t, tbl, "distance"), column(t, tbl, metric), column(t, tbl, "reason")
		for c := range dist {
			d, m := dist[c].(*array.Int64), met[c].(*array.Int64)
			for i := range d.Len() {
				var key []string
				for k := range keys {
					key = append(key, keyCols[k][c].ValueStr(i))
				}
				a := placeAnswer{distance: -1, metric: -1, reason: reason[c].ValueStr(i)}
				if d.IsValid(i) {
					a.distance = d.Value(i)
				}
				if m.IsValid(i) {
					a.metric = m.Value(i)
				}
				if d.IsValid(i) != m.IsValid(i) {
					t.Fatalf("%s: row %v: distance valid %v, %s valid %v", part, key, d.IsValid(i), metric, m.IsValid(i))
				}
				k := strings.Join(key, " ")
				order = append(order, k)
				answers[k] = a
			}
		}
	}
	return order, answers
}

// arrowValueStr is what readPlaceAnswers reads of a key column.
type arrowValueStr interface{ ValueStr(int) string }

// TestPlaceMetricsOnDelaware reports the length beside the travel time
// for a list of trips between places and for a table of places on the
// real Delaware network ((c) OpenStreetMap contributors, ODbL), with ch
// and with Dijkstra, and checks: ch writes what Dijkstra writes; each
// trip's length is the length of the route that routes between places
// (compute.path_pairs of the same file) writes, and its distance that
// route's; the length is null exactly where the distance is, the trip
// from off the map among them; and each cell of the table of places
// holds what the trip between the same two places holds. Among the trips
// are ones between places a few metres apart, which stay on one stretch
// of road, and a trip from a place to itself.
func TestPlaceMetricsOnDelaware(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 38))
	dir, ps := delawareWithPlaces(t, 40, rng)
	var trips, placesCSV strings.Builder
	trips.WriteString("ID,origin_lon,origin_lat,mode,destination_lon,destination_lat\n")
	placesCSV.WriteString("id,lon,lat\n")
	for i, p := range ps {
		fmt.Fprintf(&placesCSV, "%d,%.7f,%.7f\n", i, p.lon, p.lat)
	}
	cellOf := map[string]string{} // trip id -> "origin destination" of the table
	n := 0
	add := func(a, b lonLat) {
		fmt.Fprintf(&trips, "t%d,%.7f,%.7f,car,%.7f,%.7f\n", n, a.lon, a.lat, b.lon, b.lat)
		n++
	}
	for range 150 {
		o, d := rng.IntN(len(ps)), rng.IntN(len(ps))
		cellOf[fmt.Sprintf("t%d", n)] = fmt.Sprintf("%d %d", o, d)
		add(ps[o], ps[d])
	}
	for k := range 20 { // neighbours: most snap onto one stretch
		p := ps[k]
		add(p, lonLat{p.lon + (rng.Float64()-0.5)*0.0003, p.lat + (rng.Float64()-0.5)*0.0003})
	}
	add(ps[5], ps[5])
	trips.WriteString("off,-70.0,39.0,car,-75.5,39.1\n")
	tripsFile := stagetest.WriteFile(t, "trips.csv", trips.String())
	placesFile := stagetest.WriteFile(t, "places.csv", placesCSV.String())

	tripAnswers := map[string]map[string]placeAnswer{}
	var order []string
	for _, alg := range []string{"ch", "dijkstra"} {
		out := filepath.Join(t.TempDir(), "trips-"+alg)
		runCompute(t, loadCompute(t, "", "-input", dir, "-place-pairs", tripsFile, "-metrics", "length", "-out", out, "-backend", "cpu", "-algorithm", alg))
		order, tripAnswers[alg] = readPlaceAnswers(t, out, "length", "m", "ID")
	}
	if len(order) != n+1 || order[n] != "off" {
		t.Fatalf("trips %v, want %d and off", order, n)
	}
	got := tripAnswers["ch"]
	for _, id := range order {
		if got[id] != tripAnswers["dijkstra"][id] {
			t.Errorf("trip %s: ch %+v, dijkstra %+v", id, got[id], tripAnswers["dijkstra"][id])
		}
	}
	if off := got["off"]; off.distance != -1 || !strings.HasPrefix(off.reason, "origin: ") {
		t.Errorf("the trip from off the map: %+v", off)
	}

	routesOut := filepath.Join(t.TempDir(), "routes")
	runCompute(t, loadCompute(t, "", "-input", dir, "-path-pairs", tripsFile, "-out", routesOut, "-backend", "cpu", "-algorithm", "dijkstra"))
	routes := readTripRoutes(t, filepath.Join(routesOut, output.PathsName+".parquet"))
	if len(routes) != len(order) {
		t.Fatalf("%d routes for %d trips", len(routes), len(order))
	}
	reached := 0
	for i, r := range routes {
		a := got[order[i]]
		if r.id != order[i] || r.distance != a.distance || r.length != a.metric {
			t.Errorf("trip %s: the route is %s of %d ms and %d m, the table says %+v", order[i], r.id, r.distance, r.length, a)
		}
		if a.distance >= 0 {
			reached++
		}
	}
	if reached < n*9/10 {
		t.Fatalf("%d of %d trips reached: the test checks too few lengths", reached, n)
	}

	for _, alg := range []string{"ch", "dijkstra"} {
		out := filepath.Join(t.TempDir(), "table-"+alg)
		runCompute(t, loadCompute(t, "", "-input", dir, "-origins", placesFile, "-destinations", placesFile, "-metrics", "length", "-out", out, "-backend", "cpu", "-algorithm", alg))
		cells, table := readPlaceAnswers(t, out, "length", "m", "origin_id", "destination_id")
		if len(cells) != len(ps)*len(ps) {
			t.Fatalf("%s: %d cells for %d places", alg, len(cells), len(ps))
		}
		for id, cell := range cellOf {
			if table[cell] != got[id] {
				t.Errorf("%s: cell %s is %+v, trip %s %+v", alg, cell, table[cell], id, got[id])
			}
		}
	}
}
