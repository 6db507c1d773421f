package generate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/parallel"
)

// erBandPairs is about how many candidate pairs one band of ErdosRenyi
// walks. Bands are whole source rows, so graphs of up to 1,024 vertices
// are a single band.
const erBandPairs = 1 << 20

// ErdosRenyi returns a directed G(n, p) graph: each of the n(n-1) ordered
// pairs u != v is an arc independently with probability p, with a weight
// drawn uniformly from [lo, hi]. There are no self-loops and no parallel
// arcs; arcs come sorted by source, then target.
//
// Geometric skipping (Batagelj and Brandes, 2005) jumps straight from one
// chosen pair to the next, so the cost is O(n + m) expected, not O(n^2).
// The source rows are cut into bands of about erBandPairs pairs, each
// walked in parallel from its own stream, so the graph depends on n, p and
// the seed only.
func ErdosRenyi(n int32, p float64, lo, hi int32, seed uint64) (*graph.EdgeList, error) {
	if err := checkVertices(n); err != nil {
		return nil, err
	}
	if !(p >= 0 && p <= 1) { // also rejects NaN
		return nil, fmt.Errorf("generate: probability %v outside [0, 1]", p)
	}
	if err := checkWeights(lo, hi); err != nil {
		return nil, err
	}
	perRow := int64(n) - 1 // candidate targets of one source
	if perRow <= 0 || p == 0 {
		return graph.NewEdgeList(n, 0), nil
	}
	rowsPerBand := max(1, erBandPairs/perRow)
	bands := int((int64(n) + rowsPerBand - 1) / rowsPerBand)
	parts := make([]*graph.EdgeList, bands)
	w := newWeightDrawer(lo, hi)
	parallel.For(bands, runtime.GOMAXPROCS(0), func(b int) {
		u0 := int64(b) * rowsPerBand
		u1 := min(u0+rowsPerBand, int64(n))
		// Band 0 uses stream 0, as the whole graph did before it was cut
		// into bands: graphs of a single band kept their arcs.
		parts[b] = erdosRenyiBand(n, u0, u1, p, w, stream(seed, uint64(b)))
	})
	if bands == 1 {
		return parts[0], nil
	}
	return concatEdgeLists(n, parts), nil
}

// erdosRenyiBand draws the arcs of G(n, p) that leave sources u0..u1-1.
func erdosRenyiBand(n int32, u0, u1 int64, p float64, w weightDrawer, src *rand.PCG) *graph.EdgeList {
	r := rand.New(src)
	perRow := int64(n) - 1
	pairs := (u1 - u0) * perRow
	expected := p * float64(pairs)
	e := graph.NewEdgeList(n, int(min(expected+4*math.Sqrt(expected)+16, float64(pairs))))
	if p == 1 {
		for u := int32(u0); u < int32(u1); u++ {
			for v := int32(0); v < n; v++ {
				if v != u {
					e.Add(u, v, w.draw(src))
				}
			}
		}
		return e
	}
	logQ := math.Log1p(-p)
	// (u, col) walks the pairs row by row; col indexes u's candidate
	// targets 0..n-2, which skip u itself.
	u, col := u0, int64(-1)
	for {
		skip := math.Floor(math.Log1p(-r.Float64()) / logQ)
		if skip >= float64(pairs) { // past the band's last pair, and safe to convert
			break
		}
		col += int64(skip) + 1
		if col >= perRow {
			u += col / perRow
			col %= perRow
		}
		if u >= u1 {
			break
		}
		v := col
		if v >= u {
			v++
		}
		e.Add(int32(u), int32(v), w.draw(src))
	}
	return e
}

// concatEdgeLists joins parts, in order, into one edge list over n
// vertices, copying the parts in parallel.
func concatEdgeLists(n int32, parts []*graph.EdgeList) *graph.EdgeList {
	start := make([]int, len(parts)+1)
	for i, part := range parts {
		start[i+1] = start[i] + part.M()
	}
	m := start[len(parts)]
	e := &graph.EdgeList{N: n, Src: make([]int32, m), Dst: make([]int32, m), Weight: make([]int32, m)}
	parallel.For(len(parts), runtime.GOMAXPROCS(0), func(i int) {
		copy(e.Src[start[i]:], parts[i].Src)
		copy(e.Dst[start[i]:], parts[i].Dst)
		copy(e.Weight[start[i]:], parts[i].Weight)
	})
	return e
}
