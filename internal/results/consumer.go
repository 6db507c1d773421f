package results

// Consumer is what the blocks of a run go to: a distances table's parts, a
// distance matrix, the paths or the per-source summary read from the rows.
// The pipeline hands every block to each of its consumers (see Fanout).
type Consumer interface {
	// Put takes a block over; it is a Sink: it may be called from several
	// goroutines at once and with blocks in any order, must not wait for
	// another block, and releases the block (at once or later), also when
	// it fails.
	Put(*Rows) error
	// Close finishes the consumer once every block has been put, after a
	// run without error, and returns its first error.
	Close() error
	// Abort stops the consumer after a failed run and releases every block
	// it still holds. It is a no-op after Close.
	Abort()
}
