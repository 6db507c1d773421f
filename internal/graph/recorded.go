package graph

import "unsafe"

// Recorded holds facts about a graph's arrays that were established when
// they were written, such as an ingest's reload file records in its
// metadata, so that a check which would read every arc answers at once:
// on a graph of tens of millions of arcs each such pass costs more than a
// short search.
type Recorded struct {
	// MinWeight and MaxWeight are the range of the weights, both 0
	// without arcs (WeightRange).
	MinWeight, MaxWeight int32
	// Valid says the arrays passed the structural checks every algorithm
	// relies on: offsets that start at 0, never decrease and end at the
	// arc count, and targets that are vertices.
	Valid bool
}

// recordedFacts is a Recorded tied to the arrays it describes: it holds
// only while the graph keeps those arrays (the same first element and
// length), so a copy of a graph given other arrays forgets it. Arrays
// changed in place are not noticed; the caller of Record vouches for them.
type recordedFacts struct {
	Recorded
	offsets, targets, weights arrayIdentity
}

// arrayIdentity names an array by its first element and length.
type arrayIdentity struct {
	first unsafe.Pointer
	n     int
}

func identityOf[T any](s []T) arrayIdentity {
	return arrayIdentity{unsafe.Pointer(unsafe.SliceData(s)), len(s)}
}

// Record attaches r to c's current arrays: WeightRange then returns r's
// range in O(1), and Recorded returns r, while c holds these arrays. The
// caller vouches that r is true of them (a reader of a file whose
// checksums and writer stand for it), and that they do not change.
func (c *CSR) Record(r Recorded) {
	c.recorded = &recordedFacts{Recorded: r,
		offsets: identityOf(c.Offsets), targets: identityOf(c.Targets), weights: identityOf(c.Weights)}
}

// Recorded returns the facts Record attached to c's current arrays; ok is
// false when there are none (never recorded, or the arrays were replaced
// since).
func (c *CSR) Recorded() (r Recorded, ok bool) {
	f := c.recorded
	if f == nil || f.offsets != identityOf(c.Offsets) || f.targets != identityOf(c.Targets) || f.weights != identityOf(c.Weights) {
		return Recorded{}, false
	}
	return f.Recorded, true
}

// RecordWeightRange attaches the range of e's weights, which the caller
// vouches for, to e's current weight array: WeightRange then answers in
// O(1) while e holds that array.
func (e *EdgeList) RecordWeightRange(lo, hi int32) {
	e.recordedRange = &recordedRange{lo: lo, hi: hi, weights: identityOf(e.Weight)}
}

// recordedRange is a weight range tied to the weight array it describes.
type recordedRange struct {
	lo, hi  int32
	weights arrayIdentity
}

// recordedWeightRange returns the range RecordWeightRange attached to e's
// current weights.
func (e *EdgeList) recordedWeightRange() (lo, hi int32, ok bool) {
	r := e.recordedRange
	if r == nil || r.weights != identityOf(e.Weight) {
		return 0, 0, false
	}
	return r.lo, r.hi, true
}
