package geoparquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Well-known binary (OGC Simple Features, ISO 13249-3): a byte order
// flag, a uint32 geometry type, then the coordinates as float64 pairs
// (x = longitude, y = latitude, whatever the CRS's own axis order). Every
// geometry here is 2D and little-endian, the byte order of the machines
// that read it, so that a reader copies coordinates without swapping.
const (
	wkbLittleEndian = 1
	wkbPoint        = 1
	wkbLineString   = 2
)

// wkbHeaderBytes is the byte order flag and the geometry type.
const wkbHeaderBytes = 1 + 4

// pointBytes is one 2D coordinate.
const pointBytes = 2 * 8

// LineStringBytes is the size of the WKB LineString of n points.
func LineStringBytes(n int) int { return wkbHeaderBytes + 4 + n*pointBytes }

// Coords are points in the form of a WKB LineString's coordinates: 16
// bytes a point, its longitude then its latitude as little-endian float64
// degrees. Points encoded once (AppendCoordsUnits) make any number of
// lines through them by copying (Rows.AppendLineCoords).
type Coords []byte

// AppendCoordsUnits appends to dst the points (x[i], y[i]) given in units
// of 1/unitsPerDegree degree, the fixed point road networks keep them in:
// the bytes AppendLine writes for x[i]/unitsPerDegree, y[i]/unitsPerDegree.
// Lengths that differ, a unit that is not positive and a point off the
// globe (longitude past ±180, latitude past ±90 degrees) are errors naming
// the point. O(points).
func AppendCoordsUnits(dst Coords, x, y []int32, unitsPerDegree float64) (Coords, error) {
	if len(x) != len(y) {
		return dst, fmt.Errorf("geoparquet: %d longitudes and %d latitudes", len(x), len(y))
	}
	if !(unitsPerDegree > 0) {
		return dst, fmt.Errorf("geoparquet: %v units per degree", unitsPerDegree)
	}
	at := len(dst)
	dst = slices.Grow(dst, len(x)*pointBytes)[:at+len(x)*pointBytes]
	out := dst[at:]
	for i := range x {
		lon, lat := float64(x[i])/unitsPerDegree, float64(y[i])/unitsPerDegree
		if !(math.Abs(lon) <= 180 && math.Abs(lat) <= 90) {
			return dst[:at], fmt.Errorf("geoparquet: point %d at longitude %v, latitude %v is not on the globe", i, lon, lat)
		}
		binary.LittleEndian.PutUint64(out[i*pointBytes:], math.Float64bits(lon))
		binary.LittleEndian.PutUint64(out[i*pointBytes+8:], math.Float64bits(lat))
	}
	return dst, nil
}

// AppendPoint appends the WKB Point at lon, lat (degrees) to dst and
// returns the extended slice.
func AppendPoint(dst []byte, lon, lat float64) []byte {
	dst = append(dst, wkbLittleEndian)
	dst = binary.LittleEndian.AppendUint32(dst, wkbPoint)
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(lon))
	return binary.LittleEndian.AppendUint64(dst, math.Float64bits(lat))
}

// AppendLineString appends the WKB LineString through the points
// (lon[i], lat[i]) in order to dst and returns the extended slice. It
// writes the points as given: no points make the empty LineString, and
// one point a LineString that Simple Features does not allow (it needs 0
// or at least 2); Rows.AppendLine decides what a route of fewer than two
// points becomes. lon and lat must have the same length. O(points).
func AppendLineString(dst []byte, lon, lat []float64) []byte {
	if len(lon) != len(lat) {
		panic(fmt.Sprintf("geoparquet: %d longitudes and %d latitudes", len(lon), len(lat)))
	}
	// Grown once and written in place: appending value by value checked
	// the capacity of dst for every coordinate.
	at, size := len(dst), LineStringBytes(len(lon))
	dst = slices.Grow(dst, size)[:at+size]
	b := dst[at:]
	b[0] = wkbLittleEndian
	binary.LittleEndian.PutUint32(b[1:], wkbLineString)
	binary.LittleEndian.PutUint32(b[wkbHeaderBytes:], uint32(len(lon)))
	points := b[wkbHeaderBytes+4:]
	for i := range lon {
		p := points[i*pointBytes : (i+1)*pointBytes]
		binary.LittleEndian.PutUint64(p, math.Float64bits(lon[i]))
		binary.LittleEndian.PutUint64(p[8:], math.Float64bits(lat[i]))
	}
	return dst
}

// ErrNotLineString is returned by DecodeLineString for WKB of another
// geometry type, or with Z or M coordinates.
var ErrNotLineString = errors.New("geoparquet: not a 2D WKB LineString")

// DecodeLineString reads a 2D WKB LineString in either byte order and
// returns its longitudes and latitudes: the reverse of AppendLineString,
// for tests and tools that check a routes file. O(points).
func DecodeLineString(b []byte) (lon, lat []float64, err error) {
	order, rest, err := wkbHeader(b, wkbLineString)
	if err != nil {
		return nil, nil, err
	}
	if len(rest) < 4 {
		return nil, nil, fmt.Errorf("geoparquet: WKB LineString of %d bytes has no point count", len(b))
	}
	n := int(order.Uint32(rest))
	rest = rest[4:]
	if len(rest) != n*pointBytes {
		return nil, nil, fmt.Errorf("geoparquet: WKB LineString of %d points has %d coordinate bytes, want %d", n, len(rest), n*pointBytes)
	}
	lon, lat = make([]float64, n), make([]float64, n)
	for i := range n {
		lon[i] = math.Float64frombits(order.Uint64(rest[i*pointBytes:]))
		lat[i] = math.Float64frombits(order.Uint64(rest[i*pointBytes+8:]))
	}
	return lon, lat, nil
}

// DecodePoint reads a 2D WKB Point in either byte order: the reverse of
// AppendPoint.
func DecodePoint(b []byte) (lon, lat float64, err error) {
	order, rest, err := wkbHeader(b, wkbPoint)
	if err != nil {
		return 0, 0, err
	}
	if len(rest) != pointBytes {
		return 0, 0, fmt.Errorf("geoparquet: WKB Point has %d coordinate bytes, want %d", len(rest), pointBytes)
	}
	return math.Float64frombits(order.Uint64(rest)), math.Float64frombits(order.Uint64(rest[8:])), nil
}

// wkbHeader checks the byte order flag and that the geometry type is
// want, and returns the byte order and the bytes after the header.
func wkbHeader(b []byte, want uint32) (binary.ByteOrder, []byte, error) {
	if len(b) < wkbHeaderBytes {
		return nil, nil, fmt.Errorf("geoparquet: WKB of %d bytes has no header", len(b))
	}
	var order binary.ByteOrder
	switch b[0] {
	case 0:
		order = binary.BigEndian
	case wkbLittleEndian:
		order = binary.LittleEndian
	default:
		return nil, nil, fmt.Errorf("geoparquet: WKB byte order flag %d, want 0 or 1", b[0])
	}
	if got := order.Uint32(b[1:]); got != want {
		if want == wkbLineString {
			return nil, nil, fmt.Errorf("%w: geometry type %d", ErrNotLineString, got)
		}
		return nil, nil, fmt.Errorf("geoparquet: WKB geometry type %d, want %d", got, want)
	}
	return order, b[wkbHeaderBytes:], nil
}
