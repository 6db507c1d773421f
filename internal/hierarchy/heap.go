package hierarchy

// heapItem is a tentative distance in a search's queue.
type heapItem struct {
	dist int64
	v    int32
}

// minHeap is a binary heap of tentative distances with lazy deletion: a
// vertex is pushed again when its distance drops, and the stale entry is
// skipped when popped. Searches in a hierarchy are small, where this beats
// a heap that tracks positions.
type minHeap []heapItem

// push adds an item, O(log size).
func (h *minHeap) push(dist int64, v int32) {
	*h = append(*h, heapItem{dist, v})
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if a[p].dist <= a[i].dist {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

// pop removes and returns the smallest item, O(log size); the heap must
// not be empty.
func (h *minHeap) pop() heapItem {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		c := l
		if r := l + 1; r < last && a[r].dist < a[l].dist {
			c = r
		}
		if a[i].dist <= a[c].dist {
			break
		}
		a[i], a[c] = a[c], a[i]
		i = c
	}
	*h = a
	return top
}

// packedHeap is a binary min-heap of keys that pack a 32-bit distance above
// a 32-bit index, so that one integer comparison orders them and an entry
// takes 8 bytes: the witness searches' queue, whose distances fit 32 bits.
// Like minHeap it deletes lazily.
type packedHeap []uint64

// pack makes the key of index i at distance dist, O(1).
func pack(dist, i uint32) uint64 { return uint64(dist)<<32 | uint64(i) }

// push adds a key, O(log size).
func (h *packedHeap) push(key uint64) {
	*h = append(*h, key)
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if a[p] <= key {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = key
}

// pop removes and returns the smallest key, O(log size); the heap must
// not be empty.
func (h *packedHeap) pop() uint64 {
	a := *h
	top := a[0]
	last := len(a) - 1
	key := a[last]
	a = a[:last]
	i := 0
	for {
		c := 2*i + 1
		if c >= last {
			break
		}
		if r := c + 1; r < last && a[r] < a[c] {
			c = r
		}
		if key <= a[c] {
			break
		}
		a[i] = a[c]
		i = c
	}
	if last > 0 {
		a[i] = key
	}
	*h = a
	return top
}
