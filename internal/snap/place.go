package snap

import (
	"fmt"
	"math"
)

// Seed is where a trip from (to) a snapped point enters (leaves) the
// graph.
type Seed struct {
	// Vertex is the end of the arc piece.
	Vertex int32
	// Weight is the weight of the arc piece between the point and Vertex:
	// the arc's weight times the piece's share of the arc's length,
	// rounded to the nearest integer; 0 for an arc of length zero.
	Weight int64
}

// Place is a point's position on the network.
type Place struct {
	// OK says that the point was snapped; the other fields but Reason
	// hold only then.
	OK bool
	// Reason says why not, when !OK: "no coordinates", "coordinates out of
	// range (...)", "beyond the snap distance (812 m > 500 m)" or "no road
	// in the network".
	Reason string
	// Lon and Lat are the snapped position in degrees.
	Lon, Lat float64
	// DistanceM is the great-circle distance in metres from the point to
	// the snapped position.
	DistanceM float64
	// Arc is an arc the position lies on, -1 when !OK; of a two-way
	// street, the lower-numbered of its two arcs.
	Arc int32
	// AlongM is the length in metres from Arc's tail to the position,
	// along Arc's geometry.
	AlongM float64
	// Out are the seeds of a trip from the point: the heads of the arcs
	// it can drive along, each with the weight of the piece from the
	// position to the head. Out[0] is Arc's head; a two-way street adds
	// its reverse twin's head (Arc's tail) second.
	//
	// A position on a vertex (the point on it, or projecting onto a
	// stretch's end) answers as that vertex: Out and In then both hold
	// that one vertex with weight 0, whatever the arcs around it.
	Out []Seed
	// In are the seeds of a trip to the point: the tails of the arcs it
	// can arrive along, each with the weight of the piece from the tail
	// to the position. In[0] is Arc's tail; a two-way street adds its
	// reverse twin's tail (Arc's head) second.
	In []Seed

	// on is the stretch the position lies on, for Direct.
	on stretchWeights
}

// StretchLengthM is the length in metres, along its geometry, of the
// stretch of road the position lies on: AlongM runs from 0 at Arc's tail
// to this at its head. A route cut at the position shares the arc's
// metrics out by these lengths, as the seeds' weights are. 0 when !OK.
func (p *Place) StretchLengthM() float64 { return p.on.lengthM }

// Twin is Arc's reverse twin, the arc the seeds Out[1] and In[1] drive
// along, or -1 for a one-way stretch (and when !OK).
func (p *Place) Twin() int32 {
	if !p.OK {
		return -1
	}
	return p.on.backward
}

// stretchWeights are what Direct needs of a stretch besides its forward
// arc (Place.Arc).
type stretchWeights struct {
	backward                      int32 // the reverse twin, -1 when one-way
	forwardWeight, backwardWeight int32
	lengthM                       float64 // along the geometry
}

// pieceWeight is the weight of a piece of pieceM metres of an arc of
// weight w and length lengthM, rounded to the nearest integer.
func pieceWeight(w int32, pieceM, lengthM float64) int64 {
	if lengthM <= 0 {
		return 0
	}
	return int64(math.Round(float64(w) * pieceM / lengthM))
}

// failed is the Place of a point that was not snapped.
func failed(reason string) Place { return Place{Reason: reason, Arc: -1} }

// metres formats a distance for a reason: whole metres, or decimetres
// below 100.
func metres(m float64) string {
	if m < 100 {
		return fmt.Sprintf("%.1f m", m)
	}
	return fmt.Sprintf("%.0f m", m)
}
