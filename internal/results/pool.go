package results

import (
	"context"
	"sync"
)

// Pool hands out a fixed set of reusable blocks, so a producer can run at
// most that many blocks ahead of its consumer. Next also numbers the
// blocks: a producer must take a block before computing it and compute
// block k for the k-th Next, so blocks are held in output order and a
// consumer that waits for the lowest outstanding block never waits for a
// block whose producer is waiting for a buffer.
type Pool struct {
	free chan *Rows
	mu   sync.Mutex
	next int
}

// NewPool makes a pool of the given blocks; their release returns them to
// the pool.
func NewPool(blocks []*Rows) *Pool {
	p := &Pool{free: make(chan *Rows, len(blocks))}
	for _, b := range blocks {
		b.release = p.put
		p.free <- b
	}
	return p
}

// Next waits for a free block and returns it with its sequence number (0,
// 1, 2, ...), or ctx's error.
func (p *Pool) Next(ctx context.Context) (*Rows, int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case b := <-p.free:
		seq := p.next
		p.next++
		return b, seq, nil
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	}
}

// Drain waits until every block is back (the consumer released them all) or
// ctx ends, and returns the blocks so the producer can free their memory.
func (p *Pool) Drain(ctx context.Context, count int) ([]*Rows, error) {
	var blocks []*Rows
	for range count {
		select {
		case b := <-p.free:
			blocks = append(blocks, b)
		case <-ctx.Done():
			return blocks, ctx.Err()
		}
	}
	return blocks, nil
}

func (p *Pool) put(b *Rows) { p.free <- b }
