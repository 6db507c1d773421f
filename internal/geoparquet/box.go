package geoparquet

import "math"

// Box is a bounding box in degrees: the smallest and largest longitude
// (x) and latitude (y) of some points. Routes follow roads, which do not
// cross the antimeridian in any extract pathflow reads, so a box is plain
// minima and maxima, never the RFC 7946 form with xmin > xmax.
type Box struct {
	XMin, YMin, XMax, YMax float64
}

// emptyBox is the box of no points: any point extends it to itself.
func emptyBox() Box {
	return Box{XMin: math.Inf(1), YMin: math.Inf(1), XMax: math.Inf(-1), YMax: math.Inf(-1)}
}

// addPoint extends b to cover lon, lat.
func (b *Box) addPoint(lon, lat float64) {
	b.XMin, b.XMax = min(b.XMin, lon), max(b.XMax, lon)
	b.YMin, b.YMax = min(b.YMin, lat), max(b.YMax, lat)
}

// addBox extends b to cover o.
func (b *Box) addBox(o Box) {
	b.XMin, b.XMax = min(b.XMin, o.XMin), max(b.XMax, o.XMax)
	b.YMin, b.YMax = min(b.YMin, o.YMin), max(b.YMax, o.YMax)
}
