package geoparquet

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/tables"
)

// unitsPerDegree is the fixed point of the road networks' coordinates.
const unitsPerDegree = 10_000_000

// batchOf returns the geometry and bbox columns that produce writes,
// through Rows with no leading column, as one batch.
func batchOf(t *testing.T, produce func(r *Rows) error) (geometry *array.Binary, bbox *array.Struct) {
	t.Helper()
	cfg, err := tables.NewConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	var rec arrow.RecordBatch
	rows := newRows(Schema(nil, nil, tables.Parquet), 0, cfg, func(r arrow.RecordBatch, _ batchMemory) error {
		if rec != nil {
			t.Fatal("more than one batch")
		}
		r.Retain()
		rec = r
		return nil
	}, nil)
	defer rows.release()
	if err := produce(rows); err != nil {
		t.Fatal(err)
	}
	if err := rows.flush(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Release)
	return rec.Column(0).(*array.Binary), rec.Column(1).(*array.Struct)
}

// TestAppendLineWithMatchesAppendLine checks that a route whose points,
// encoded from fixed point units (AppendCoordsUnits), are copied into
// place with the box of its units, has the WKB and bounding box that
// AppendLine writes for the same points in degrees:
// random walks, one point, points on the antimeridian and the poles, and
// rows without a route between them.
func TestAppendLineWithMatchesAppendLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var xs, ys [][]int32
	for range 20 {
		n := rng.IntN(50)
		x, y := make([]int32, n), make([]int32, n)
		px, py := int32(-755_000_000+rng.IntN(1_000_000)), int32(390_000_000+rng.IntN(1_000_000))
		for i := range n {
			px, py = px+int32(rng.IntN(2001)-1000), py+int32(rng.IntN(2001)-1000)
			x[i], y[i] = px, py
		}
		xs, ys = append(xs, x), append(ys, y)
	}
	xs = append(xs, nil, []int32{12_345}, []int32{-1_800_000_000, 1_800_000_000, 0}, []int32{1, -1})
	ys = append(ys, nil, []int32{-67_890}, []int32{900_000_000, -900_000_000, 0}, []int32{0, 0})

	degrees := func(u []int32) []float64 {
		d := make([]float64, len(u))
		for i, v := range u {
			d[i] = float64(v) / unitsPerDegree
		}
		return d
	}
	wantGeo, wantBox := batchOf(t, func(r *Rows) error {
		for i := range xs {
			if err := r.AppendLine(degrees(xs[i]), degrees(ys[i])); err != nil {
				return err
			}
		}
		return nil
	})
	gotGeo, gotBox := batchOf(t, func(r *Rows) error {
		for i := range xs {
			coords, err := AppendCoordsUnits(nil, xs[i], ys[i], unitsPerDegree)
			if err != nil {
				return err
			}
			box := emptyBox()
			for j := range xs[i] {
				box.addPoint(float64(xs[i][j])/unitsPerDegree, float64(ys[i][j])/unitsPerDegree)
			}
			if err := r.AppendLineWith(len(xs[i]), func(dst []byte) (Box, error) {
				if len(dst) != len(coords) {
					t.Fatalf("room for %d bytes, want %d", len(dst), len(coords))
				}
				copy(dst, coords)
				return box, nil
			}); err != nil {
				return err
			}
		}
		return nil
	})
	for i := range xs {
		if gotGeo.IsNull(i) != wantGeo.IsNull(i) || !bytes.Equal(gotGeo.Value(i), wantGeo.Value(i)) {
			t.Errorf("row %d (%d points): WKB\n got %x\nwant %x", i, len(xs[i]), gotGeo.Value(i), wantGeo.Value(i))
		}
		if gotBox.IsNull(i) != wantBox.IsNull(i) {
			t.Errorf("row %d: bbox null %v, want %v", i, gotBox.IsNull(i), wantBox.IsNull(i))
		}
		for f := range gotBox.NumField() {
			g, w := gotBox.Field(f).(*array.Float64).Value(i), wantBox.Field(f).(*array.Float64).Value(i)
			if g != w {
				t.Errorf("row %d: bbox field %d is %v, want %v", i, f, g, w)
			}
		}
	}
	if gotBox.NullN() != 1 {
		t.Errorf("%d rows without a route, want 1 (the empty one)", gotBox.NullN())
	}
}

// TestAppendCoordsUnitsRejects checks that points off the globe, lengths
// that differ and a unit that is not positive are errors that say so.
func TestAppendCoordsUnitsRejects(t *testing.T) {
	for _, c := range []struct {
		name  string
		x, y  []int32
		units float64
		want  string
	}{
		{"east of 180", []int32{0, 1_800_000_001}, []int32{0, 0}, unitsPerDegree, "point 1 at longitude 180.0000001"},
		{"south of -90", []int32{5, 6, 7}, []int32{0, 0, -900_000_001}, unitsPerDegree, "point 2 at longitude 7e-07, latitude -90.0000001"},
		{"few degrees per unit", []int32{200}, []int32{0}, 1, "point 0 at longitude 200"},
		{"lengths", []int32{1, 2}, []int32{1}, unitsPerDegree, "2 longitudes and 1 latitudes"},
		{"no units", []int32{1}, []int32{1}, 0, "0 units per degree"},
		{"negative units", []int32{1}, []int32{1}, -1, "-1 units per degree"},
	} {
		kept := Coords("kept")
		got, err := AppendCoordsUnits(kept, c.x, c.y, c.units)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
		if string(got) != "kept" {
			t.Errorf("%s: dst became %q after the error", c.name, got)
		}
	}
}

// TestAppendLineWithReturnsFillError: an error of fill is AppendLineWith's,
// naming the row.
func TestAppendLineWithReturnsFillError(t *testing.T) {
	cfg, err := tables.NewConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := newRows(Schema(nil, nil, tables.Parquet), 0, cfg, func(arrow.RecordBatch, batchMemory) error { return nil }, nil)
	defer rows.release()
	err = rows.AppendLineWith(3, func([]byte) (Box, error) { return Box{}, errors.New("no room") })
	if err == nil || !strings.Contains(err.Error(), "row 0: no room") {
		t.Errorf("error %v, want one naming row 0 and the fill's error", err)
	}
}
