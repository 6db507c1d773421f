package gputest

import (
	"fmt"
	"sync"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// CheckBlock checks every row of b with CheckRow, the reference rows from
// want, on all cores.
func CheckBlock(g *graph.CSR, b *results.Rows, want func(s int32) []int64, parents bool) error {
	return ForEach(b.Len(), func(i int) error {
		return CheckRow(g, b.Tree(i).Copy(), want(b.Sources[i]), parents)
	})
}

// Collector is a results.Sink for tests. For every block it checks the
// shape against the request (backend.Request.CheckRows) and that no row arrives
// twice, runs Check, keeps a copy of each row (Rows.Tree, copied) when Keep, and
// releases the block. It is safe for concurrent use.
type Collector struct {
	// Check, when set, runs on every block before it is released; its
	// error is the sink's.
	Check func(*results.Rows) error
	// Keep keeps a copy of every row, for Done.
	Keep bool

	req     *backend.Request
	mu      sync.Mutex
	seen    []bool
	trees   []*paths.Tree
	blocks  int
	maxRows int
}

// NewCollector returns a collector for req's rows.
func NewCollector(req *backend.Request, keep bool) *Collector {
	return &Collector{req: req, Keep: keep, seen: make([]bool, len(req.Sources)), trees: make([]*paths.Tree, len(req.Sources))}
}

// Sink is the collector's results.Sink.
func (c *Collector) Sink(b *results.Rows) error {
	defer b.Release()
	if err := c.req.CheckRows(b); err != nil {
		return err
	}
	if b.Len() == 0 {
		return fmt.Errorf("gputest: empty block at row %d", b.First)
	}
	c.mu.Lock()
	c.blocks++
	c.maxRows = max(c.maxRows, b.Len())
	for i := range b.Len() {
		if c.seen[b.First+i] {
			c.mu.Unlock()
			return fmt.Errorf("gputest: row %d (source %d) arrived twice", b.First+i, b.Sources[i])
		}
		c.seen[b.First+i] = true
	}
	c.mu.Unlock()
	if c.Check != nil {
		if err := c.Check(b); err != nil {
			return err
		}
	}
	if c.Keep {
		for i := range b.Len() {
			t := b.Tree(i).Copy()
			c.mu.Lock()
			c.trees[b.First+i] = t
			c.mu.Unlock()
		}
	}
	return nil
}

// Done checks that every row arrived and returns the kept rows in the
// request's order (nil without Keep).
func (c *Collector) Done() ([]*paths.Tree, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, ok := range c.seen {
		if !ok {
			return nil, fmt.Errorf("gputest: row %d (source %d) never arrived", i, c.req.Sources[i])
		}
	}
	if !c.Keep {
		return nil, nil
	}
	return c.trees, nil
}

// Blocks is the number of blocks received and MaxRows the rows of the
// largest.
func (c *Collector) Blocks() (blocks, maxRows int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.blocks, c.maxRows
}

// RowHash is an FNV-1a hash of row i's distances (int32 or int64 alike:
// unreachable hashes as paths.Unreachable), so that two runs' rows can be
// compared without keeping either.
func RowHash(b *results.Rows, i int) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	lo, _ := b.Span(i)
	dist := b.Distances()
	for v := range b.Width {
		d := uint64(dist.Weight(lo + v))
		for range 8 {
			h = (h ^ (d & 0xff)) * prime
			d >>= 8
		}
	}
	return h
}
