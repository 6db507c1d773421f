package graph

import "fmt"

// UnitsPerDegree is the scale of geographic coordinates: X and Y count
// 10^-7 degree, OpenStreetMap's own fixed precision (about 1 cm), so that
// its coordinates are exact in an int32 and a longitude of ±180 degrees
// (±1.8e9 units) still fits.
const UnitsPerDegree = 10_000_000

// Vertices is the per-vertex metadata an input carries beside its arcs.
type Vertices struct {
	// OriginalID[v] is the id vertex v had in the input file (1-based DIMACS
	// ids, arbitrary SNAP ids, OpenStreetMap node ids). Nil means the
	// identity v.
	OriginalID []int64
	// X and Y are integer coordinates. With Geographic, longitude and
	// latitude on WGS84 in units of 10^-7 degree (UnitsPerDegree);
	// otherwise in the input's own units (DIMACS .co: longitude and
	// latitude times 10^6; a generated grid: column and row). Both nil
	// when unknown.
	X, Y []int32
	// Geographic says that X and Y are WGS84 longitude and latitude in
	// units of 10^-7 degree, which the tables store as degrees (lon and
	// lat columns). It implies coordinates.
	Geographic bool
}

// Original returns the input id of vertex v.
func (vs *Vertices) Original(v int32) int64 {
	if vs == nil || vs.OriginalID == nil {
		return int64(v)
	}
	return vs.OriginalID[v]
}

// HasCoordinates reports whether X and Y are known.
func (vs *Vertices) HasCoordinates() bool { return vs != nil && vs.X != nil && vs.Y != nil }

// IsGeographic reports whether X and Y are known and geographic.
func (vs *Vertices) IsGeographic() bool { return vs.HasCoordinates() && vs.Geographic }

// Lon returns the longitude of vertex v in degrees; only for Geographic
// vertices. Exact: X[v] is the nearest integer to Lon(v)*UnitsPerDegree.
func (vs *Vertices) Lon(v int32) float64 { return float64(vs.X[v]) / UnitsPerDegree }

// Lat returns the latitude of vertex v in degrees; only for Geographic
// vertices.
func (vs *Vertices) Lat(v int32) float64 { return float64(vs.Y[v]) / UnitsPerDegree }

// Bounds of geographic coordinates, in units of 10^-7 degree.
const (
	MaxLonUnits = 180 * UnitsPerDegree
	MaxLatUnits = 90 * UnitsPerDegree
)

// CheckGeographic returns an error naming the first vertex whose
// coordinates are no longitude and latitude (|X| > 180 or |Y| > 90
// degrees), nil when there is none or the vertices are not Geographic.
// A geographic table must hold nothing a reader would refuse. O(n).
func (vs *Vertices) CheckGeographic() error {
	if vs == nil || !vs.Geographic {
		return nil
	}
	if !vs.HasCoordinates() {
		return fmt.Errorf("graph: geographic vertices without coordinates")
	}
	for v := range min(len(vs.X), len(vs.Y)) {
		if x, y := vs.X[v], vs.Y[v]; x < -MaxLonUnits || x > MaxLonUnits || y < -MaxLatUnits || y > MaxLatUnits {
			return fmt.Errorf("graph: vertex %d at longitude %g, latitude %g degrees: out of range", v, vs.Lon(int32(v)), vs.Lat(int32(v)))
		}
	}
	return nil
}
