package compute

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/formats/osmroads/osmroadstest"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// randomIDs returns count distinct dense ids below n, comma-separated.
func randomIDs(n int32, count int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	ids := rng.Perm(int(n))[:count]
	parts := make([]string, count)
	for i, v := range ids {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ",")
}

// TestDelawareFromOpenStreetMap ingests the real Delaware extract (2016,
// (c) OpenStreetMap contributors, ODbL) as a user would, and checks that
// ingest.hierarchy: auto stores a hierarchy for it, that ch from it equals
// Dijkstra on a 200 x 200 table, that a second ingest writes the same
// bytes, and that a compute run by OpenStreetMap node ids answers with
// the vertices' longitude and latitude.
func TestDelawareFromOpenStreetMap(t *testing.T) {
	osmroadstest.Extract(t, osmroadstest.Delaware)
	dir, m := ingestTo(t, "-dataset", "delaware-osm")
	if !m.Hierarchy.Stored || !m.Hierarchy.Coordinates {
		t.Fatalf("auto stored no hierarchy for a real road network: %+v", m.Hierarchy)
	}
	if m.InputFormat != "osm" || m.Road == nil || m.Road.Profile != "car" || m.Road.WeightUnit != "ms" || m.Road.Components < 2 {
		t.Fatalf("manifest %+v, road %+v", m, m.Road)
	}
	if !slices.ContainsFunc(m.Files, func(f output.ManifestFile) bool { return f.Path == "geometry.parquet" && f.Rows > 0 }) {
		t.Errorf("files %+v: no geometry table", m.Files)
	}
	usedStored(t, computeCells(t, dir, randomIDs(m.N, 200, 1), randomIDs(m.N, 200, 2), "-algorithm", "ch"))

	_, m2 := ingestTo(t, "-dataset", "delaware-osm")
	for i, f := range m.Files {
		if f != m2.Files[i] {
			t.Errorf("a second ingest wrote %+v, the first %+v", m2.Files[i], f)
		}
	}

	// Sources and targets by OpenStreetMap node id: the first vertex's.
	_, vs, _, err := tables.ReadGraph(tables.GraphFilesIn(dir, tables.Parquet))
	if err != nil {
		t.Fatal(err)
	}
	if !vs.Geographic {
		t.Fatal("the ingested vertices are not geographic")
	}
	first, last := strconv.FormatInt(vs.OriginalID[0], 10), strconv.FormatInt(vs.OriginalID[len(vs.OriginalID)-1], 10)
	out := filepath.Join(t.TempDir(), "out")
	runCompute(t, loadCompute(t, "", "-input", dir, "-out", out, "-backend", "cpu", "-ids", "original", "-sources", first+","+last, "-targets", last+","+first))
	tbl, _ := readParquet(t, filepath.Join(out, output.VerticesName+".parquet"))
	var lon, lat []float64
	for _, c := range column(t, tbl, "lon") {
		lon = append(lon, c.(*array.Float64).Float64Values()...)
	}
	for _, c := range column(t, tbl, "lat") {
		lat = append(lat, c.(*array.Float64).Float64Values()...)
	}
	if len(lon) != 2 || lon[0] != vs.Lon(0) || lat[0] != vs.Lat(0) {
		t.Errorf("compute's vertices table has lon %v, lat %v; the input's first vertex is at %v, %v", lon, lat, vs.Lon(0), vs.Lat(0))
	}
}

// TestOpenStreetMapInputFaults checks the exit paths of OpenStreetMap
// input: a damaged extract is an input error naming the file and the
// block's offset, an unknown profile a config error naming the key.
func TestOpenStreetMapInputFaults(t *testing.T) {
	data, err := os.ReadFile(osmroadstest.Extract(t, osmroadstest.Delaware))
	if err != nil {
		t.Fatal(err)
	}
	cut := stagetest.WriteFile(t, "cut.osm.pbf", string(data[:len(data)/2]))
	_, err = ingest.Run(context.Background(), loadIngest(t, "-input", cut, "-out", filepath.Join(t.TempDir(), "g")), stagetest.QuietLog, io.Discard)
	if err == nil || !strings.Contains(err.Error(), cut) || !strings.Contains(err.Error(), "PBF block at byte offset") {
		t.Errorf("truncated extract: %v", err)
	}
	var inputErr *stageerr.InputError
	if !errors.As(err, &inputErr) {
		t.Errorf("truncated extract: %T, want an input error (exit 3)", err)
	}
	_, err = input.LoadGraph(context.Background(), input.Spec{Path: cut, OSM: input.OSMSpec{Profile: "bicycle"}}, stagetest.QuietLog, io.Discard, true)
	if err == nil || !strings.Contains(err.Error(), input.KeyInputOSMProfile) {
		t.Errorf("unknown profile: %v", err)
	}
}
