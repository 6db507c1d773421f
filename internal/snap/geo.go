package snap

import (
	"math"

	"github.com/pathflow/pathflow/internal/earth"
)

// frame is the equirectangular projection centred on a point: x metres
// east and y metres north of it.
type frame struct {
	lon, lat float64 // the centre, degrees
	kx, ky   float64 // metres per degree of longitude and of latitude there
}

// frameAt returns the projection centred on (lon, lat).
func frameAt(lon, lat float64) frame {
	return frame{lon: lon, lat: lat, kx: earth.MetresPerDegree * math.Cos(lat*math.Pi/180), ky: earth.MetresPerDegree}
}

// boxDistance2 returns the squared projected distance from the centre to
// the box [minLon, maxLon] x [minLat, maxLat]: zero inside it, and never
// more than the distance to anything within it.
func (f frame) boxDistance2(minLon, minLat, maxLon, maxLat float64) float64 {
	// Plain comparisons rather than max, whose NaN and signed-zero rules
	// cost branches here, on the search's most frequent call.
	var dx, dy float64
	if f.lon < minLon {
		dx = minLon - f.lon
	} else if f.lon > maxLon {
		dx = f.lon - maxLon
	}
	if f.lat < minLat {
		dy = minLat - f.lat
	} else if f.lat > maxLat {
		dy = f.lat - maxLat
	}
	dx, dy = dx*f.kx, dy*f.ky
	return dx*dx + dy*dy
}

// segmentBoxDistance2 is boxDistance2 of the box of the segment from a
// to b: the first test of a segment in a search, with plain comparisons
// in place of min and max, which would weigh NaNs and signed zeros that
// stored coordinates never are.
func (f frame) segmentBoxDistance2(aLon, aLat, bLon, bLat float64) float64 {
	if bLon < aLon {
		aLon, bLon = bLon, aLon
	}
	if bLat < aLat {
		aLat, bLat = bLat, aLat
	}
	return f.boxDistance2(aLon, aLat, bLon, bLat)
}

// project returns where on the segment from a to b (degrees) the centre
// projects, as the share t in [0, 1] of the way from a to b, and the
// squared projected distance from the centre to that position. A segment
// of zero length projects to a (t = 0). The position is exact at the ends:
// t is 0 when the centre is a and 1 when it is b.
func (f frame) project(aLon, aLat, bLon, bLat float64) (t, dist2 float64) {
	ax, ay := (aLon-f.lon)*f.kx, (aLat-f.lat)*f.ky
	bx, by := (bLon-f.lon)*f.kx, (bLat-f.lat)*f.ky
	dx, dy := bx-ax, by-ay
	if length2 := dx*dx + dy*dy; length2 > 0 {
		t = min(max(-(ax*dx+ay*dy)/length2, 0), 1)
	}
	px, py := ax+t*dx, ay+t*dy
	if t == 1 {
		px, py = bx, by
	}
	return t, px*px + py*py
}
