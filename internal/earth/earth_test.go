package earth

import (
	"math"
	"testing"
)

// TestDistance checks the distance against values worked out by hand on
// the sphere: a thousandth of a degree along the equator and along a
// meridian (R * pi / 180 / 1000 = 111.19508 m), a quarter of the equator
// (R * pi / 2), and antipodes (R * pi).
func TestDistance(t *testing.T) {
	for _, c := range []struct {
		lon1, lat1, lon2, lat2, want float64
	}{
		{0, 0, 0.001, 0, 111.19508},
		{10, 45, 10, 45.001, 111.19508},
		{0, 0, 90, 0, 10007557.22},
		{0, 0, 180, 0, 20015114.44},
		{-75.5, 39.1, -75.5, 39.1, 0},
	} {
		if got := Distance(c.lon1, c.lat1, c.lon2, c.lat2); math.Abs(got-c.want) > 0.01 {
			t.Errorf("Distance(%g, %g, %g, %g) = %.5f m, want %.5f", c.lon1, c.lat1, c.lon2, c.lat2, got, c.want)
		}
	}
}
