package hierarchy

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/pathflow/pathflow/internal/graph"
)

// Assemble returns the hierarchy of n vertices with the given ranks and
// arcs, as a reader of a stored hierarchy has them, after checking every
// invariant the queries rely on (see Validate); Order is derived from rank.
// The slices are kept, not copied. O(n + arcs) on workers goroutines.
func Assemble(rank []int32, up graph.CSR, upMiddle []int32, down graph.CSR, downMiddle []int32, rounds int, checksum string, workers int) (*Hierarchy, error) {
	n := len(rank)
	h := &Hierarchy{N: int32(n), Rank: rank, Order: make([]int32, n), Up: up, UpMiddle: upMiddle,
		Down: down, DownMiddle: downMiddle, GraphChecksum: checksum, Rounds: rounds}
	if int(int32(n)) != n {
		return nil, fmt.Errorf("hierarchy: %d vertices do not fit int32 ids", n)
	}
	for r := range h.Order {
		h.Order[r] = -1
	}
	for v, r := range rank {
		if r < 0 || int(r) >= n || h.Order[r] >= 0 {
			return nil, fmt.Errorf("hierarchy: vertex %d has rank %d, not one of a permutation of 0..%d", v, r, n-1)
		}
		h.Order[r] = int32(v)
	}
	if err := h.Validate(workers); err != nil {
		return nil, err
	}
	return h, nil
}

// Validate checks the invariants the queries rely on: Rank and Order are
// inverse permutations of 0..N-1, Up and Down have N rows whose offsets
// climb, every arc goes to a higher rank, rows are sorted by target,
// weights are not negative, and a shortcut's middle vertex lies below both
// its ends. It returns the first violation found. O(n + arcs) on workers
// goroutines.
func (h *Hierarchy) Validate(workers int) error {
	n := int(h.N)
	if len(h.Rank) != n || len(h.Order) != n {
		return fmt.Errorf("hierarchy: %d ranks and %d order entries for %d vertices", len(h.Rank), len(h.Order), n)
	}
	workers = max(workers, 1)
	errs := make([]error, workers)
	forRanges(n, workers, func(w, lo, hi int) {
		for r := lo; r < hi; r++ {
			v := h.Order[r]
			if v < 0 || int(v) >= n || h.Rank[v] != int32(r) {
				errs[w] = fmt.Errorf("hierarchy: order %d is vertex %d, whose rank is not %d", r, v, r)
				return
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, side := range []struct {
		name string
		c    *graph.CSR
		mids []int32
	}{{"up", &h.Up, h.UpMiddle}, {"down", &h.Down, h.DownMiddle}} {
		if err := h.validateSide(side.name, side.c, side.mids, workers); err != nil {
			return err
		}
	}
	return nil
}

// validateSide checks one direction's arcs (see Validate).
func (h *Hierarchy) validateSide(name string, c *graph.CSR, mids []int32, workers int) error {
	n := int(h.N)
	if c.N != h.N || len(c.Offsets) != n+1 || c.Offsets[0] != 0 {
		return fmt.Errorf("hierarchy: %s has %d rows and %d offsets for %d vertices", name, c.N, len(c.Offsets), n)
	}
	m := c.Offsets[n]
	if int64(len(c.Targets)) != m || int64(len(c.Weights)) != m || int64(len(mids)) != m {
		return fmt.Errorf("hierarchy: %s has %d targets, %d weights and %d middles for %d arcs", name, len(c.Targets), len(c.Weights), len(mids), m)
	}
	var (
		mu    sync.Mutex
		first error
	)
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
	}
	forRanges(n, workers, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			a0, a1 := c.Offsets[r], c.Offsets[r+1]
			if a0 > a1 || a1 > m {
				fail(fmt.Errorf("hierarchy: %s row %d has offsets %d..%d of %d arcs", name, r, a0, a1, m))
				return
			}
			row := c.Targets[a0:a1]
			if !slices.IsSorted(row) {
				fail(fmt.Errorf("hierarchy: %s row %d is not sorted by target", name, r))
				return
			}
			for i, x := range row {
				a := a0 + int64(i)
				mid := mids[a]
				switch {
				case int(x) <= r || int(x) >= n:
					fail(fmt.Errorf("hierarchy: %s arc %d of row %d goes to %d, not up", name, a, r, x))
					return
				case c.Weights[a] < 0:
					fail(fmt.Errorf("hierarchy: %s arc %d weighs %d", name, a, c.Weights[a]))
					return
				case mid != NoMiddle && (mid < 0 || int(mid) >= r):
					fail(fmt.Errorf("hierarchy: %s arc %d of row %d (to %d) has middle %d, not below both ends", name, a, r, x, mid))
					return
				}
			}
		}
	})
	return first
}
