package results

import "sync/atomic"

// Fanout hands every block to each of its consumers, in order, so that
// several outputs read one run. Each consumer gets its own handle on the
// block and releases it as it would the block; the block goes back to its
// producer once every handle is released.
type Fanout []Consumer

// Put hands rows to every consumer. A consumer's error stops the hand-over:
// the handles of the consumers after it are released unread, and the error
// is returned.
func (f Fanout) Put(rows *Rows) error {
	if len(f) == 1 {
		return f[0].Put(rows)
	}
	var left atomic.Int32
	left.Store(int32(len(f)))
	handles := make([]Rows, len(f))
	for k := range handles {
		handles[k] = *rows
		handles[k].release = func(*Rows) {
			if left.Add(-1) == 0 {
				rows.Release()
			}
		}
	}
	for k, c := range f {
		if err := c.Put(&handles[k]); err != nil {
			for j := k + 1; j < len(handles); j++ {
				handles[j].Release()
			}
			return err
		}
	}
	return nil
}

// Close closes every consumer, in order, and returns the first error.
func (f Fanout) Close() error {
	var first error
	for _, c := range f {
		if err := c.Close(); first == nil {
			first = err
		}
	}
	return first
}

// Abort aborts every consumer.
func (f Fanout) Abort() {
	for _, c := range f {
		c.Abort()
	}
}
