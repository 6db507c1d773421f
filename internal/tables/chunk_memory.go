package tables

import (
	"slices"
	"sync"
)

// chunkMemory is the memory.Allocator of columnsWriter's buffered page
// writers: each column chunk of a row group is encoded into a buffer of
// its own while the others encode, and that buffer is freed once the
// chunk is written out. Arrow's Go allocator would allocate each one
// afresh, zeroed, and grow it by doubling, copying what it holds: for a
// routes table's WKB column, some 13 MB a row group allocated, zeroed and
// copied about twice. chunkMemory keeps freed buffers for the next row
// group's chunks instead, so that after the first row group a chunk's
// pages are copied once, into a buffer of the right size.
//
// The page writers read back only what they wrote, so a recycled buffer
// is not cleared. It keeps at most keep buffers, the largest.
type chunkMemory struct {
	mu   sync.Mutex
	free [][]byte // by capacity, smallest first
	keep int
}

// newChunkMemory returns an allocator that keeps up to keep freed
// buffers: one a column leaf suffices for a writer's row groups.
func newChunkMemory(keep int) *chunkMemory {
	return &chunkMemory{keep: keep}
}

// Allocate returns a buffer of size bytes, recycled when a freed one is
// large enough (the smallest such), else new.
func (m *chunkMemory) Allocate(size int) []byte {
	m.mu.Lock()
	i, _ := slices.BinarySearchFunc(m.free, size, func(b []byte, size int) int { return cap(b) - size })
	if i < len(m.free) {
		b := m.free[i]
		m.free = slices.Delete(m.free, i, i+1)
		m.mu.Unlock()
		return b[:size]
	}
	m.mu.Unlock()
	return make([]byte, size)
}

// Reallocate returns a buffer of size bytes holding b's bytes: b itself
// when it has the room.
func (m *chunkMemory) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	grown := m.Allocate(size)
	copy(grown, b)
	m.Free(b)
	return grown
}

// Free keeps b for a later Allocate, dropping the smallest buffer kept
// when there are more than keep.
func (m *chunkMemory) Free(b []byte) {
	if cap(b) == 0 {
		return
	}
	b = b[:0]
	m.mu.Lock()
	defer m.mu.Unlock()
	i, _ := slices.BinarySearchFunc(m.free, cap(b), func(f []byte, c int) int { return cap(f) - c })
	m.free = slices.Insert(m.free, i, b)
	if len(m.free) > m.keep {
		m.free[0] = nil
		m.free = m.free[1:]
	}
}
