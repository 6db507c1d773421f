package tables

import "testing"

// TestChunkMemoryRecycles: a freed buffer is handed out again for a
// request it can hold (the smallest that fits), growth keeps the bytes,
// and no more than keep buffers are kept.
func TestChunkMemoryRecycles(t *testing.T) {
	m := newChunkMemory(2)
	small, large := m.Allocate(100), m.Allocate(1000)
	small[0], large[0] = 1, 2
	m.Free(large)
	m.Free(small)
	if got := m.Allocate(50); &got[:1][0] != &small[:1][0] {
		t.Error("a request of 50 bytes did not get the 100-byte buffer")
	}
	if got := m.Allocate(500); &got[:1][0] != &large[:1][0] {
		t.Error("a request of 500 bytes did not get the 1000-byte buffer")
	}
	b := m.Allocate(10)
	copy(b, "0123456789")
	grown := m.Reallocate(5000, b)
	if len(grown) != 5000 || string(grown[:10]) != "0123456789" {
		t.Fatalf("growing kept %q in %d bytes", grown[:10], len(grown))
	}
	if again := m.Allocate(10); &again[:1][0] != &b[:1][0] {
		t.Error("the buffer left by growing was not recycled")
	}
	for _, size := range []int{10, 20, 30, 40} {
		m.Free(make([]byte, size))
	}
	if len(m.free) != 2 || cap(m.free[0]) != 30 || cap(m.free[1]) != 40 {
		t.Errorf("kept %d buffers, want the two largest", len(m.free))
	}
}
