package snap

// Direct is the weight of the trip from a to b staying on the road piece
// both lie on, when they lie on the same stretch (the same arc, or an arc
// and its reverse twin) and the direction allows (on a one-way arc only
// forward: b at or after a); ok is false otherwise. A trip through the
// graph (a's Out seeds to b's In seeds) misses this one when b lies
// ahead of a on a single arc, so a table takes the smaller of the two.
// The weight is the share of the arc's weight that the piece from a to b
// makes of its length, rounded to the nearest integer. O(1); the places
// are passed by reference since a table asks for every pair.
func Direct(a, b *Place) (weight int64, ok bool) {
	if !a.OK || !b.OK {
		return 0, false
	}
	bAlong := b.AlongM
	switch {
	case a.Arc == b.Arc:
	case a.on.backward >= 0 && b.Arc == a.on.backward:
		// b measured along the twin: from the other end.
		bAlong = a.on.lengthM - b.AlongM
	default:
		return 0, false
	}
	if bAlong >= a.AlongM {
		return pieceWeight(a.on.forwardWeight, bAlong-a.AlongM, a.on.lengthM), true
	}
	if a.on.backward < 0 {
		return 0, false
	}
	return pieceWeight(a.on.backwardWeight, a.AlongM-bAlong, a.on.lengthM), true
}
