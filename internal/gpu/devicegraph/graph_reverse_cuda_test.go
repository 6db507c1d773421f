//go:build cuda

package devicegraph

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// TestReverseMatchesTheHostReverse builds the reverse of random graphs
// (parallel arcs, isolated vertices, a fresh seed) on the device and
// checks every row against graph.CSR.Reverse as a multiset of (source,
// weight): the device writes a row's arcs in any order.
func TestReverseMatchesTheHostReverse(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	for _, size := range []struct {
		n int32
		m int
	}{{1, 0}, {5, 0}, {2, 3}, {100, 1000}, {3000, 20000}, {20000, 300000}} {
		g := graph.BuildCSR(graphtest.RandomGraph(r, size.n, size.m, 1, 50, 0))
		err := testDevice.Do(func(c *device.Ctx) error {
			fwd, err := UploadCSR(c, g)
			if err != nil {
				return err
			}
			defer fwd.Free(c)
			rev, err := Reverse(c, fwd)
			if err != nil {
				return err
			}
			defer rev.Free(c)
			got := &graph.CSR{N: g.N, Offsets: make([]int64, g.N+1), Targets: make([]int32, rev.M), Weights: make([]int32, rev.M)}
			if err := c.CopyInt64FromDevice(got.Offsets, rev.Offsets); err != nil {
				return err
			}
			if err := c.CopyInt32FromDevice(got.Targets, rev.Targets); err != nil {
				return err
			}
			if err := c.CopyInt32FromDevice(got.Weights, rev.Weights); err != nil {
				return err
			}
			return sameRows(got, g.Reverse())
		})
		if err != nil {
			t.Fatalf("n %d m %d: %v", size.n, size.m, err)
		}
	}
}

// sameRows reports the first row where got and want differ as multisets
// of (target, weight).
func sameRows(got, want *graph.CSR) error {
	if !slices.Equal(got.Offsets, want.Offsets) {
		return fmt.Errorf("offsets differ")
	}
	type arc struct{ v, w int32 }
	row := func(c *graph.CSR, v int32) []arc {
		var out []arc
		for a := c.Offsets[v]; a < c.Offsets[v+1]; a++ {
			out = append(out, arc{c.Targets[a], c.Weights[a]})
		}
		slices.SortFunc(out, func(x, y arc) int { return cmp.Or(cmp.Compare(x.v, y.v), cmp.Compare(x.w, y.w)) })
		return out
	}
	for v := range want.N {
		if g, w := row(got, v), row(want, v); !slices.Equal(g, w) {
			return fmt.Errorf("row %d: %v, want %v", v, g, w)
		}
	}
	return nil
}
