package osmroads

import "math"

// earthRadius is the mean Earth radius in metres (IUGG), the sphere the
// lengths of arcs are measured on.
const earthRadius = 6371008.8

// coordinateScale is how many units of the stored integer coordinates
// make a degree: OpenStreetMap's own fixed precision, 10^-7 degree.
const coordinateScale = 1e7

// distance returns the great-circle distance in metres between two points
// given in 10^-7 degree (haversine: accurate to well under a millimetre
// for the metres between neighbouring nodes of a road).
func distance(x1, y1, x2, y2 int32) float64 {
	const rad = math.Pi / 180 / coordinateScale
	lat1, lat2 := float64(y1)*rad, float64(y2)*rad
	dLat, dLon := lat2-lat1, (float64(x2)-float64(x1))*rad
	s1, s2 := math.Sin(dLat/2), math.Sin(dLon/2)
	h := s1*s1 + math.Cos(lat1)*math.Cos(lat2)*s2*s2
	return 2 * earthRadius * math.Asin(math.Sqrt(min(h, 1)))
}

// fixed converts degrees to the stored 10^-7 degree.
func fixed(deg float64) int32 { return int32(math.Round(deg * coordinateScale)) }
