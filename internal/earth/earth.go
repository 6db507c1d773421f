// Package earth measures distances on the sphere every road length and
// snap distance of pathflow is measured on, so that the OpenStreetMap
// reader's arc lengths and the snapping of places agree to the last bit.
package earth

import "math"

// Radius is the mean Earth radius in metres (IUGG).
const Radius = 6371008.8

// MetresPerDegree is the length of a degree of latitude, and of longitude
// on the equator, on that sphere.
const MetresPerDegree = Radius * math.Pi / 180

// Distance returns the great-circle distance in metres between two points
// given in degrees (haversine: accurate to well under a millimetre for the
// metres between neighbouring nodes of a road). O(1).
func Distance(lon1, lat1, lon2, lat2 float64) float64 {
	const rad = math.Pi / 180
	phi1, phi2 := lat1*rad, lat2*rad
	s1, s2 := math.Sin((phi2-phi1)/2), math.Sin((lon2-lon1)*rad/2)
	h := s1*s1 + math.Cos(phi1)*math.Cos(phi2)*s2*s2
	return 2 * Radius * math.Asin(math.Sqrt(min(h, 1)))
}
