package compute

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// TestShardedPlacesEqualTheOneShotRun answers a table of places and a
// list of trips on the real Delaware network ((c) OpenStreetMap
// contributors, ODbL) once unsharded and once in 3 shards then finalize,
// in Parquet and in Arrow IPC: the shards' distances parts, in shard
// order, are the unsharded table row for row; the finalized points table
// is the unsharded one; and the dataset manifest lists both. Small parts
// give each shard several, and places off the map and repeated ones fall
// into the blocks as they come.
func TestShardedPlacesEqualTheOneShotRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 3))
	dir, ps := delawareWithPlaces(t, 25, rng)
	var placeCSV strings.Builder
	placeCSV.WriteString("id,lon,lat\n")
	for i := range ps {
		if i == 11 {
			ps[i] = lonLat{-70, 39} // in the ocean: null rows
		}
		if i == 17 {
			ps[i] = ps[4] // a repeated place
		}
		fmt.Fprintf(&placeCSV, "p%d,%.7f,%.7f\n", i, ps[i].lon, ps[i].lat)
	}
	var tripCSV strings.Builder
	tripCSV.WriteString("id,origin_lon,origin_lat,destination_lon,destination_lat,mode\n")
	for k := range 40 {
		o, d := ps[rng.IntN(len(ps))], ps[rng.IntN(len(ps))]
		fmt.Fprintf(&tripCSV, "%d,%.7f,%.7f,%.7f,%.7f,mode%d\n", k, o.lon, o.lat, d.lon, d.lat, k%3)
	}
	placesFile := stagetest.WriteFile(t, "places.csv", placeCSV.String())
	tripsFile := stagetest.WriteFile(t, "trips.csv", tripCSV.String())
	for _, format := range []string{"parquet", "arrow"} {
		for _, tc := range []struct {
			name     string
			args     []string
			rows     int
			partRows int
			parts    int // at least, over the 3 shards
		}{
			{"table", []string{"-origins", placesFile, "-destinations", placesFile}, len(ps) * len(ps), 100, 6},
			{"trips", []string{"-place-pairs", tripsFile}, 40, 10, 6},
		} {
			t.Run(format+"/"+tc.name, func(t *testing.T) {
				args := append([]string{"-input", dir, "-backend", "cpu", "-algorithm", "ch", "-output-format", format}, tc.args...)
				yaml := fmt.Sprintf("output:\n  part_rows: %d\n", tc.partRows)
				ext := "." + format
				oneShot, dataset := filepath.Join(t.TempDir(), "one"), filepath.Join(t.TempDir(), "dataset")
				runCompute(t, loadCompute(t, yaml, append(args, "-out", oneShot)...))
				for i := range 3 {
					runCompute(t, loadCompute(t, yaml, append(args, "-out", dataset, "-shard", fmt.Sprintf("%d/3", i))...))
				}
				runCompute(t, loadCompute(t, yaml, append(args, "-out", dataset, "-finalize", "-shards", "3")...))

				want := tableText(t, globParts(t, filepath.Join(oneShot, output.DistancesDir), ext))
				var shardParts []string
				for i := range 3 {
					shardParts = append(shardParts, globParts(t, filepath.Join(dataset, output.DistancesDir, output.ShardName(i)), ext)...)
				}
				if len(shardParts) < tc.parts {
					t.Errorf("the shards wrote %d parts, want at least %d", len(shardParts), tc.parts)
				}
				got := tableText(t, shardParts)
				if len(want) != tc.rows+1 || !slices.Equal(got, want) {
					t.Errorf("distances: the shards hold %d rows, the one-shot run %d (want %d); first difference %s",
						len(got)-1, len(want)-1, tc.rows, firstDifference(got, want))
				}
				wantPoints := tableText(t, []string{filepath.Join(oneShot, PointsName+ext)})
				gotPoints := tableText(t, []string{filepath.Join(dataset, PointsName+ext)})
				if !slices.Equal(gotPoints, wantPoints) {
					t.Errorf("points: first difference %s", firstDifference(gotPoints, wantPoints))
				}
				listed := map[string]bool{}
				for _, f := range readDatasetManifest(t, dataset).Files {
					listed[f.Path] = true
				}
				for _, part := range append(shardParts, filepath.Join(dataset, PointsName+ext)) {
					rel, _ := filepath.Rel(dataset, part)
					if !listed[filepath.ToSlash(rel)] {
						t.Errorf("the dataset manifest does not list %s (it lists %v)", rel, listed)
					}
				}
			})
		}
	}
}

// TestFinalizeRefusesShardsWhosePointsDiffer finalizes a dataset whose
// shard 1 wrote a points table unlike shard 0's (as if the two had
// snapped with different settings): finalize keeps one for the whole
// dataset, so it names the shard instead.
func TestFinalizeRefusesShardsWhosePointsDiffer(t *testing.T) {
	osm := stagetest.WriteFile(t, "street.osm", "<?xml version='1.0'?>\n<osm version=\"0.6\">\n"+
		" <node id=\"1\" lat=\"0\" lon=\"0\"/>\n <node id=\"2\" lat=\"0\" lon=\"0.001\"/>\n <node id=\"3\" lat=\"0\" lon=\"0.002\"/>\n"+
		" <way id=\"10\"><nd ref=\"1\"/><nd ref=\"2\"/><nd ref=\"3\"/><tag k=\"highway\" v=\"residential\"/></way>\n</osm>\n")
	places := stagetest.WriteFile(t, "places.csv", "id,lon,lat\na,0.0005,0.0001\nb,0.0015,-0.0001\n")
	out := filepath.Join(t.TempDir(), "dataset")
	args := []string{"-input", osm, "-origins", places, "-destinations", places, "-backend", "cpu", "-out", out}
	for i := range 2 {
		runCompute(t, loadCompute(t, "", append(args, "-shard", fmt.Sprintf("%d/2", i))...))
	}
	manifest := filepath.Join(output.ShardDir(out, 1), output.ManifestName)
	sm := readJSONFile[output.ShardManifest](t, manifest)
	for i, f := range sm.Files {
		if filepath.Base(f.Path) == PointsName+".parquet" {
			// The file must agree with its manifest, or the shard
			// reads as damaged before the tables are compared.
			b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f.Path)))
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)/2] ^= 1
			if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(f.Path)), b, 0o644); err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			sm.Files[i].SHA256 = hex.EncodeToString(sum[:])
		}
	}
	f, err := os.Create(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := output.EncodeJSON(f, sm); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = Run(context.Background(), loadCompute(t, "", append(args, "-finalize", "-shards", "2")...), stagetest.QuietLog, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "shard=0001 differs from shard=0000") {
		t.Fatalf("finalize of shards with different points tables: %v", err)
	}
}

// globParts lists the part files of a table folder, in order.
func globParts(t *testing.T, dir, ext string) []string {
	t.Helper()
	parts, err := filepath.Glob(filepath.Join(dir, "part-*"+ext))
	if err != nil || len(parts) == 0 {
		t.Fatalf("no %s parts in %s (%v)", ext, dir, err)
	}
	return parts // five-digit names sort in order
}

// tableText reads the files, in order, as text rows: first the schema's
// fields and their types, then every row's values.
func tableText(t *testing.T, paths []string) []string {
	t.Helper()
	var rows []string
	for i, path := range paths {
		cfg, err := tables.NewConfig(nil)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := tables.OpenTable(path, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			var fields []string
			for _, f := range tr.Schema().Fields() {
				fields = append(fields, f.Name+" "+f.Type.String())
			}
			rows = append(rows, strings.Join(fields, ", "))
		}
		err = tr.Scan(func(rec arrow.RecordBatch) error {
			for r := range int(rec.NumRows()) {
				values := make([]string, rec.NumCols())
				for c, col := range rec.Columns() {
					values[c] = col.ValueStr(r)
				}
				rows = append(rows, strings.Join(values, " | "))
			}
			return nil
		})
		if cerr := tr.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return rows
}

// firstDifference describes the first row where got and want differ.
func firstDifference(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("row %d: %q, want %q", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, want %d", len(got), len(want))
	}
	return "none"
}
