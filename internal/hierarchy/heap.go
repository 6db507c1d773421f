package hierarchy

import "slices"

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

// pack makes the key of index i at distance dist for a witnessQueue: the
// distance above the index, so that one integer comparison orders keys
// and a key takes 8 bytes. O(1).
func pack(dist, i uint32) uint64 { return uint64(dist)<<32 | uint64(i) }

// witnessQueue is the witness searches' queue of packed keys. A search
// holds a handful of keys at a time (seven on average when one is popped,
// on Delaware), where a sorted array beats a heap: a pop takes the last
// key, with none of the heap's sifting and its mispredicted branches, and
// a push shifts the few larger keys up by one. A queue that outgrows
// sortedQueueMax keys turns into a binary heap (the array reversed, which
// is a valid one) for the rest of the search. Keys are unique (an index
// is pushed again only at a smaller distance), so the order of pops is
// that of any priority queue. The length is kept apart from the array,
// so that a push or pop writes no slice header (nor its write barrier).
type witnessQueue struct {
	keys []uint64 // keys[:n], descending while sorted, else a heap
	n    int
	heap bool
}

// sortedQueueMax is the number of keys up to which a witnessQueue stays a
// sorted array.
const sortedQueueMax = 32

// reset empties the queue, O(1).
func (q *witnessQueue) reset() {
	q.n = 0
	q.heap = false
}

// len returns the number of keys, O(1).
func (q *witnessQueue) len() int { return q.n }

// push adds a key: O(size) up to sortedQueueMax keys, O(log size) above.
func (q *witnessQueue) push(key uint64) {
	if q.n == len(q.keys) {
		q.keys = append(q.keys, 0)
		q.keys = q.keys[:cap(q.keys)]
	}
	a := q.keys[:q.n+1]
	q.n++
	i := len(a) - 1
	if q.heap {
		for i > 0 {
			p := (i - 1) / 2
			if a[p] <= key {
				break
			}
			a[i] = a[p]
			i = p
		}
		a[i] = key
		return
	}
	for i > 0 && a[i-1] < key {
		a[i] = a[i-1]
		i--
	}
	a[i] = key
	if len(a) > sortedQueueMax {
		slices.Reverse(a)
		q.heap = true
	}
}

// pop removes and returns the smallest key; the queue must not be empty.
// O(1) while sorted, O(log size) as a heap.
func (q *witnessQueue) pop() uint64 {
	q.n--
	last := q.n
	if !q.heap {
		return q.keys[last]
	}
	a := q.keys[:last+1]
	top, key := a[0], a[last]
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
	return top
}

// rekey replaces every key k by f(k) and restores the queue's order, for
// keys whose indices moved. O(size log size).
func (q *witnessQueue) rekey(f func(uint64) uint64) {
	a := q.keys[:q.n]
	for k, key := range a {
		a[k] = f(key)
	}
	slices.Sort(a) // ascending: a valid heap
	if !q.heap {
		slices.Reverse(a)
	}
}
