package graph

// CSR is the compressed sparse row form of a directed graph: the arcs leaving
// vertex u are Targets[Offsets[u]:Offsets[u+1]] with the matching Weights.
// Within one vertex the arcs keep their input order, so building a CSR is
// deterministic.
type CSR struct {
	// N is the number of vertices.
	N int32
	// Offsets has N+1 entries; Offsets[N] is the number of arcs.
	Offsets []int64
	// Targets and Weights have one entry per arc.
	Targets []int32
	Weights []int32
	// Metric, when not nil, is a second value per arc beside its weight
	// (a road's length when the weight is its travel time), in the same
	// arc order: what searches report along the paths they choose (see
	// MetricKeys). BuildCSR and Reverse carry it.
	Metric []int32
	// recorded holds the facts Record attached, or nil.
	recorded *recordedFacts
}

// M returns the number of arcs.
func (c *CSR) M() int { return len(c.Targets) }

// Degree returns the out-degree of u.
func (c *CSR) Degree(u int32) int { return int(c.Offsets[u+1] - c.Offsets[u]) }

// BuildCSR groups the arcs of e by source with a stable counting sort,
// O(N + M) work. Large graphs are sorted on every core (see
// buildCSRParallel) with the same result. e must be valid (see
// EdgeList.Validate).
func BuildCSR(e *EdgeList) *CSR {
	c := buildCSRFor(e.N, arcSet{key: e.Src, to: e.Dst, weight: e.Weight})
	if e.Metric != nil {
		c.Metric = CSROrder(e, e.Metric)
	}
	return c
}

// CSROrder returns values, one per arc of e in e's order, in the arc order
// of BuildCSR(e): the counting sort is stable and keyed by source alone,
// so a sort of the values alone puts them where the arcs go. O(n + m).
func CSROrder(e *EdgeList, values []int32) []int32 {
	return buildCSRFor(e.N, arcSet{key: e.Src, to: e.Dst, weight: values}).Weights
}

// BuildReverseCSR is BuildCSR of the graph with every arc reversed: row v
// lists the arcs that enter v, with their sources as Targets.
func BuildReverseCSR(e *EdgeList) *CSR {
	return buildCSRFor(e.N, arcSet{key: e.Dst, to: e.Src, weight: e.Weight})
}

// Reverse returns c with every arc reversed: row v lists the arcs that
// enter v, their sources as Targets, in increasing source order. O(n + m)
// work, on every core for large graphs, like BuildCSR.
func (c *CSR) Reverse() *CSR {
	r := buildCSRFor(c.N, arcSet{key: c.Targets, weight: c.Weights, rows: c.Offsets})
	if c.Metric != nil {
		r.Metric = buildCSRFor(c.N, arcSet{key: c.Targets, weight: c.Metric, rows: c.Offsets}).Weights
	}
	return r
}

// buildCSR is the sequential stable counting sort: arc i goes to row
// from[i] with target to[i] and weight weight[i]. It is the reference the
// parallel sort must match byte for byte.
func buildCSR(n int32, from, to, weight []int32) *CSR {
	c := &CSR{
		N:       n,
		Offsets: make([]int64, int(n)+1),
		Targets: make([]int32, len(from)),
		Weights: make([]int32, len(from)),
	}
	for _, u := range from {
		c.Offsets[u+1]++
	}
	for u := int32(0); u < n; u++ {
		c.Offsets[u+1] += c.Offsets[u]
	}
	next := make([]int64, n)
	copy(next, c.Offsets[:n])
	for i, u := range from {
		at := next[u]
		next[u]++
		c.Targets[at] = to[i]
		c.Weights[at] = weight[i]
	}
	return c
}

// WeightRange returns the smallest and largest arc weight; both are 0 when
// there are no arcs. O(1) for a recorded range (Record), else O(m) on
// every core for large graphs.
func (c *CSR) WeightRange() (lo, hi int32) {
	if r, ok := c.Recorded(); ok {
		return r.MinWeight, r.MaxWeight
	}
	return weightRange(c.Weights)
}

// MeanWeight is the mean arc weight, 0 without arcs. O(m), on every core
// for large graphs.
func (c *CSR) MeanWeight() float64 {
	if len(c.Weights) == 0 {
		return 0
	}
	return float64(weightSum(c.Weights)) / float64(len(c.Weights))
}
