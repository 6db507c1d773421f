package hierarchy

// pairMask records which pairs of a vertex's neighbours needed a shortcut
// at its last scoring, by their positions in its arc lists: bit
// maskSpan*i + j for in-arc i and out-arc j (in a symmetric graph both
// index the one list, i < j), for the first maskSpan positions of each;
// pairs beyond them are searched at every scoring. Eight bytes per vertex,
// where a list of pairs would take a slice and its allocations: most
// vertices of a road network keep fewer than maskSpan neighbours until the
// last rounds.
type pairMask uint64

// maskSpan is the number of positions per list that a pairMask covers.
const maskSpan = 8

// rowBits and colBits are the bits of row 0 and column 0.
const (
	rowBits pairMask = 1<<maskSpan - 1
	colBits pairMask = 0x0101010101010101
)

// covers reports whether position i of a list is in the mask, O(1).
func covers(i int) bool { return i < maskSpan }

// has reports whether pair (i, j) is set, O(1).
func (m pairMask) has(i, j int) bool {
	return covers(i) && covers(j) && m>>(maskSpan*i+j)&1 != 0
}

// set records pair (i, j) when the mask covers both positions, O(1).
func (m *pairMask) set(i, j int) {
	if covers(i) && covers(j) {
		*m |= 1 << (maskSpan*i + j)
	}
}

// moveRow follows a removal from the in-list: the arc at position i is
// gone and the last one, at position last >= i, took its place. O(1).
func (m pairMask) moveRow(i, last int) pairMask {
	if !covers(i) {
		return m
	}
	m &^= rowBits << (maskSpan * i)
	if covers(last) && last != i {
		m |= (m >> (maskSpan * last) & rowBits) << (maskSpan * i)
		m &^= rowBits << (maskSpan * last)
	}
	return m
}

// moveCol is moveRow for the out-list. O(1).
func (m pairMask) moveCol(i, last int) pairMask {
	if !covers(i) {
		return m
	}
	m &^= colBits << i
	if covers(last) && last != i {
		m |= (m >> last & colBits) << i
		m &^= colBits << last
	}
	return m
}

// moveBoth follows a removal from the one list of a symmetric graph, where
// pair (i, j) is kept with i < j: the moved arc's pairs are put back in
// that order. O(maskSpan).
func (m pairMask) moveBoth(i, last int) pairMask {
	if !covers(i) {
		return m
	}
	var partners uint // of the arc that moves
	if covers(last) && last != i {
		for k := range maskSpan {
			if k != last && m.has(min(k, last), max(k, last)) {
				partners |= 1 << k
			}
		}
	}
	m = m.moveRow(i, i).moveCol(i, i)
	if covers(last) {
		m = m.moveRow(last, last).moveCol(last, last)
	}
	for k := range maskSpan {
		if partners>>k&1 != 0 && k != i {
			m.set(min(k, i), max(k, i))
		}
	}
	return m
}
