package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestChecksumIdentifiesTheArcs checks that the checksum does not depend
// on the worker count or on the order of arcs out of different vertices,
// and changes with any arc, weight, order within a row, or count.
func TestChecksumIdentifiesTheArcs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := 3*checksumBlockArcs + 17 // several blocks and a ragged last one
	e := NewEdgeList(1000, m)
	for range m {
		e.Add(rng.Int32N(1000), rng.Int32N(1000), rng.Int32N(100))
	}
	base := BuildCSR(e).Checksum(1)
	if got := BuildCSR(e).Checksum(5); got != base {
		t.Fatalf("5 workers give %s, 1 gives %s", got, base)
	}
	// The same arcs listed by source give the same rows.
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(e.Src[a]) - int(e.Src[b]) })
	sorted := NewEdgeList(e.N, m)
	for _, i := range order {
		sorted.Add(e.Src[i], e.Dst[i], e.Weight[i])
	}
	if got := BuildCSR(sorted).Checksum(3); got != base {
		t.Fatalf("the arcs grouped by source give %s, as listed %s", got, base)
	}
	changes := map[string]func(c *EdgeList){
		"a weight":    func(c *EdgeList) { c.Weight[m-1]++ },
		"a head":      func(c *EdgeList) { c.Dst[5] = (c.Dst[5] + 1) % 1000 },
		"the n":       func(c *EdgeList) { c.N++ },
		"an arc less": func(c *EdgeList) { c.Src, c.Dst, c.Weight = c.Src[:m-1], c.Dst[:m-1], c.Weight[:m-1] },
		"two arcs of one row swapped": func(c *EdgeList) {
			for i := 1; i < m; i++ {
				for j := range i {
					if c.Src[j] == c.Src[i] && (c.Dst[j] != c.Dst[i] || c.Weight[j] != c.Weight[i]) {
						c.Dst[i], c.Dst[j] = c.Dst[j], c.Dst[i]
						c.Weight[i], c.Weight[j] = c.Weight[j], c.Weight[i]
						return
					}
				}
			}
		},
	}
	for name, change := range changes {
		c := &EdgeList{N: e.N, Src: slices.Clone(e.Src), Dst: slices.Clone(e.Dst), Weight: slices.Clone(e.Weight)}
		change(c)
		if BuildCSR(c).Checksum(2) == base {
			t.Errorf("changing %s keeps the checksum", name)
		}
	}
}
