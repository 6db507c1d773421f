package hierarchy

import "math/bits"

// localityOrder returns an order of the vertices in which those near each
// other in the plane are near each other in the order: by cells of a Z
// (Morton) curve over their coordinates, about two vertices per cell, in
// id order within a cell; nil when x and y are not given. Build numbers
// the graph it contracts this way, so a witness search, which walks from a
// vertex to its neighbours, finds their arc lists and labels close
// together in memory: on the Delaware road network, numbered by
// OpenStreetMap node id, the build needs 15% less CPU. O(n) with a
// counting sort of n/2 to n cells.
func localityOrder(x, y []int32) []int32 {
	n := len(x)
	if n == 0 || len(y) != n {
		return nil
	}
	minX, maxX, minY, maxY := x[0], x[0], y[0], y[0]
	for v := range n {
		minX, maxX = min(minX, x[v]), max(maxX, x[v])
		minY, maxY = min(minY, y[v]), max(maxY, y[v])
	}
	span := max(uint32(int64(maxX)-int64(minX)), uint32(int64(maxY)-int64(minY)))
	keyBits := 2 * bits.Len32(span)                       // significant bits of a Morton key
	cellBits := min(keyBits, max(1, bits.Len(uint(n))-1)) // 2^cellBits cells, n/2 to n of them
	shift := keyBits - cellBits
	cell := func(v int) uint32 {
		return uint32((spread(uint32(int64(x[v])-int64(minX))) | spread(uint32(int64(y[v])-int64(minY)))<<1) >> shift)
	}
	start := make([]int32, 1<<cellBits+1)
	for v := range n {
		start[cell(v)+1]++
	}
	for c := range 1 << cellBits {
		start[c+1] += start[c]
	}
	order := make([]int32, n)
	for v := range n {
		c := cell(v)
		order[start[c]] = int32(v)
		start[c]++
	}
	return order
}

// inverse returns the permutation p^-1 of p, O(n).
func inverse(p []int32) []int32 {
	q := make([]int32, len(p))
	for i, v := range p {
		q[v] = int32(i)
	}
	return q
}
