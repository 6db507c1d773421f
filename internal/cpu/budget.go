package cpu

import (
	"github.com/pathflow/pathflow/internal/memlimit"
)

// rowMemoryShare is the share of the memory the machine has left (as
// memlimit.Available reads it when a run starts) that a run's rows in
// flight may hold by default: the blocks of its pool and, for whole ch
// trees, its PHAST sweeps. One sixteenth leaves room for the graph, the
// hierarchy, the writers' buffers and the collector's headroom (the Go
// heap grows to about twice what is live before it collects).
const rowMemoryShare = 16

// minRowMemory and fallbackRowMemory bound the default budget: no less
// than minRowMemory however little is left, and fallbackRowMemory where
// the machine reports no limit.
const (
	minRowMemory      = 256 << 20
	fallbackRowMemory = 1 << 30
)

// availableMemory is memlimit.Available, replaced by tests.
var availableMemory = memlimit.Available

// Option configures a Backend made by New.
type Option func(*Backend)

// RowMemory bounds the bytes a run's rows in flight may hold: the blocks
// of its pool (computed, or with the consumer) and, for whole ch trees,
// its PHAST sweeps. A run always holds at least one block and one sweep,
// however small the bound; bytes <= 0 keeps the default, a sixteenth of
// the memory left when the run starts.
func RowMemory(bytes int64) Option {
	return func(b *Backend) { b.rowBytes = bytes }
}

// rowMemory is the budget of one run's rows in flight: the configured
// one, or the default RowMemory describes.
func (b *Backend) rowMemory() int64 {
	if b.rowBytes > 0 {
		return b.rowBytes
	}
	l, ok := availableMemory()
	if !ok {
		return fallbackRowMemory
	}
	return max(minRowMemory, l.Free/rowMemoryShare)
}

// cellBytes is what one cell of a block holds: an int64 distance, an
// int32 parent when asked for, an int32 vertex in a sparse block.
func cellBytes(parents, sparse bool) int64 {
	b := int64(8)
	if parents {
		b += 4
	}
	if sparse {
		b += 4
	}
	return b
}

// poolBlocks is how many blocks of blockBytes fit in budget beside fixed
// bytes held otherwise (sweeps): at least one, so that a run always
// progresses, and at most most.
func poolBlocks(budget, fixed, blockBytes int64, most int) int {
	fit := (budget - fixed) / max(1, blockBytes)
	return int(max(1, min(int64(most), fit)))
}
