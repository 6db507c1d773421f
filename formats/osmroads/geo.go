package osmroads

import (
	"math"

	"github.com/pathflow/pathflow/internal/earth"
)

// coordinateScale is how many units of the stored integer coordinates
// make a degree: OpenStreetMap's own fixed precision, 10^-7 degree.
const coordinateScale = 1e7

// distance returns the great-circle distance in metres between two points
// given in 10^-7 degree, on the sphere snapping measures on too
// (internal/earth).
func distance(x1, y1, x2, y2 int32) float64 {
	return earth.Distance(float64(x1)/coordinateScale, float64(y1)/coordinateScale, float64(x2)/coordinateScale, float64(y2)/coordinateScale)
}

// fixed converts degrees to the stored 10^-7 degree.
func fixed(deg float64) int32 { return int32(math.Round(deg * coordinateScale)) }
