package graph

import (
	"math/rand/v2"
	"testing"
)

// TestChecksumIdentifiesTheArcs checks that the checksum does not depend
// on the worker count and changes with any arc, weight, order or count.
func TestChecksumIdentifiesTheArcs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := 3*checksumBlockArcs + 17 // several blocks and a ragged last one
	e := NewEdgeList(1000, m)
	for range m {
		e.Src = append(e.Src, rng.Int32N(1000))
		e.Dst = append(e.Dst, rng.Int32N(1000))
		e.Weight = append(e.Weight, rng.Int32N(100))
	}
	base := e.Checksum(1)
	if got := e.Checksum(5); got != base {
		t.Fatalf("5 workers give %s, 1 gives %s", got, base)
	}
	changes := map[string]func(c *EdgeList){
		"a weight":    func(c *EdgeList) { c.Weight[m-1]++ },
		"a head":      func(c *EdgeList) { c.Dst[5] = (c.Dst[5] + 1) % 1000 },
		"two arcs":    func(c *EdgeList) { c.Src[0], c.Src[1], c.Dst[0], c.Dst[1] = c.Src[1], c.Src[0], c.Dst[1], c.Dst[0] },
		"the n":       func(c *EdgeList) { c.N++ },
		"an arc less": func(c *EdgeList) { c.Src, c.Dst, c.Weight = c.Src[:m-1], c.Dst[:m-1], c.Weight[:m-1] },
	}
	for name, change := range changes {
		c := &EdgeList{N: e.N, Src: append([]int32(nil), e.Src...), Dst: append([]int32(nil), e.Dst...), Weight: append([]int32(nil), e.Weight...)}
		change(c)
		if c.Src[0] == e.Src[0] && c.Src[1] == e.Src[1] && name == "two arcs" {
			continue // the two arcs were equal
		}
		if c.Checksum(2) == base {
			t.Errorf("changing %s keeps the checksum", name)
		}
	}
}
