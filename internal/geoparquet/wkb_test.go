package geoparquet

import (
	"encoding/hex"
	"errors"
	"slices"
	"testing"
)

// The WKB of the tests is spelled out byte by byte, from the Simple
// Features layout, so that a mistake in the encoder cannot pass by
// agreeing with itself.
func TestAppendLineStringBytes(t *testing.T) {
	got := AppendLineString(nil, []float64{1, -2.5}, []float64{0.5, 90})
	want := "01" + "02000000" + "02000000" + // little-endian, LineString, 2 points
		"000000000000f03f" + "000000000000e03f" + // 1, 0.5
		"00000000000004c0" + "0000000000805640" // -2.5, 90
	if hex.EncodeToString(got) != want {
		t.Errorf("WKB\n got %x\nwant %s", got, want)
	}
	if len(got) != LineStringBytes(2) {
		t.Errorf("%d bytes, LineStringBytes(2) says %d", len(got), LineStringBytes(2))
	}
	if empty := hex.EncodeToString(AppendLineString(nil, nil, nil)); empty != "01"+"02000000"+"00000000" {
		t.Errorf("empty LineString %s", empty)
	}
}

func TestAppendPointBytes(t *testing.T) {
	got := hex.EncodeToString(AppendPoint([]byte{0xff}, -75.5, 39))
	want := "ff" + "01" + "01000000" + // the byte before, little-endian, Point
		"0000000000e052c0" + "0000000000804340" // -75.5, 39
	if got != want {
		t.Errorf("WKB after a byte\n got %s\nwant %s", got, want)
	}
}

func TestDecodeLineStringRoundTrip(t *testing.T) {
	lon := []float64{-75.5466, -75.5467001, 179.9999999, -180}
	lat := []float64{39.7391, 39.7390999, -89.5, 90}
	b := AppendLineString(nil, lon, lat)
	gotLon, gotLat, err := DecodeLineString(b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gotLon, lon) || !slices.Equal(gotLat, lat) {
		t.Errorf("decoded %v %v, want %v %v", gotLon, gotLat, lon, lat)
	}
	x, y, err := DecodePoint(AppendPoint(nil, lon[0], lat[0]))
	if err != nil || x != lon[0] || y != lat[0] {
		t.Errorf("point %v %v %v, want %v %v", x, y, err, lon[0], lat[0])
	}
}

func TestDecodeLineStringBigEndian(t *testing.T) {
	// LINESTRING (1 2, 3 4) as a big-endian writer (PostGIS on SPARC,
	// Java's JTS by default) writes it.
	b, _ := hex.DecodeString("00" + "00000002" + "00000002" +
		"3ff0000000000000" + "4000000000000000" + "4008000000000000" + "4010000000000000")
	lon, lat, err := DecodeLineString(b)
	if err != nil || !slices.Equal(lon, []float64{1, 3}) || !slices.Equal(lat, []float64{2, 4}) {
		t.Errorf("%v %v %v", lon, lat, err)
	}
}

func TestDecodeLineStringRejects(t *testing.T) {
	good := AppendLineString(nil, []float64{1, 2}, []float64{3, 4})
	for name, b := range map[string][]byte{
		"empty":      nil,
		"byte order": append([]byte{2}, good[1:]...),
		"point":      AppendPoint(nil, 1, 2),
		"Z":          append(append([]byte{1}, 0xea, 0x03, 0, 0), good[5:]...), // type 1002
		"short":      good[:len(good)-1],
		"long":       append(slices.Clone(good), 0),
		"no count":   good[:6],
		"huge count": append(append([]byte{1, 2, 0, 0, 0}, 0xff, 0xff, 0xff, 0x7f), good[9:]...),
	} {
		if _, _, err := DecodeLineString(b); err == nil {
			t.Errorf("%s: decoded", name)
		} else if name == "point" && !errors.Is(err, ErrNotLineString) {
			t.Errorf("%s: %v, want ErrNotLineString", name, err)
		}
	}
	if _, _, err := DecodePoint(good); err == nil {
		t.Error("a LineString decodes as a point")
	}
}

func TestAppendLineStringPanicsOnUnequalLengths(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	AppendLineString(nil, []float64{1}, nil)
}
