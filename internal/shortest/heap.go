package shortest

// indexedHeap is a 4-ary min-heap of vertices keyed by tentative distance,
// with decrease-key: pos[v] is v's slot in items, or 0 (a padding slot,
// never an item's) when v is not in the heap. A 4-ary heap is shallower than a binary one, and the layout
// puts the four children of a node in one aligned group of four 16-byte
// items (one cache line): the root sits alone at slot 3 and the children of
// slot i are slots 4i-8 .. 4i-5, so a pop reads one line per level.
//
// After a search has emptied the heap every pos entry is 0 again, so one
// heap serves any number of searches without clearing; and a new heap's
// index is fresh zeroed memory, which the system provides a page at a
// time as the search first touches it, so a search that reaches few
// vertices costs nothing proportional to the graph.
type indexedHeap struct {
	items []heapItem // items[:rootSlot] are unused padding
	pos   []int32
}

type heapItem struct {
	key    int64
	vertex int32
}

const rootSlot = 3

func heapParent(i int) int     { return i>>2 + 2 }
func heapFirstChild(i int) int { return 4*i - 8 }

// notInHeap is pos[v] for a vertex v not in the heap: slot 0 is padding.
const notInHeap = 0

func newIndexedHeap(n int32) *indexedHeap {
	return &indexedHeap{pos: make([]int32, n), items: make([]heapItem, rootSlot, rootSlot+64)}
}

// empty reports whether the heap holds no vertex.
func (h *indexedHeap) empty() bool { return len(h.items) == rootSlot }

// clear empties the heap early (a cancelled search), restoring the
// all notInHeap position index. O(size).
func (h *indexedHeap) clear() {
	for _, it := range h.items[rootSlot:] {
		h.pos[it.vertex] = notInHeap
	}
	h.items = h.items[:rootSlot]
}

// push inserts v, which must not be in the heap. O(log n).
func (h *indexedHeap) push(v int32, key int64) {
	h.items = append(h.items, heapItem{key, v})
	h.up(len(h.items)-1, heapItem{key, v})
}

// decrease lowers the key of v, which must be in the heap. O(log n).
func (h *indexedHeap) decrease(v int32, key int64) {
	h.up(int(h.pos[v]), heapItem{key, v})
}

// pop removes and returns the vertex with the smallest key. O(log n).
func (h *indexedHeap) pop() (int32, int64) {
	items := h.items
	top := items[rootSlot]
	h.pos[top.vertex] = notInHeap
	last := items[len(items)-1]
	items = items[:len(items)-1]
	h.items = items
	if len(items) > rootSlot {
		h.down(last)
	}
	return top.vertex, top.key
}

// up moves it from slot i towards the root to its place.
func (h *indexedHeap) up(i int, it heapItem) {
	items, pos := h.items, h.pos
	for i > rootSlot {
		parent := heapParent(i)
		p := items[parent]
		if p.key <= it.key {
			break
		}
		items[i] = p
		pos[p.vertex] = int32(i)
		i = parent
	}
	items[i] = it
	pos[it.vertex] = int32(i)
}

// down places it, starting at the root, below every smaller item.
func (h *indexedHeap) down(it heapItem) {
	items, pos := h.items, h.pos
	n := len(items)
	i := rootSlot
	for {
		first := heapFirstChild(i)
		if first >= n {
			break
		}
		// The smallest of up to four children.
		best, bestKey := first, items[first].key
		if first+4 <= n {
			// Branchless: the comparisons are unpredictable, so pick with
			// conditional moves instead of jumps.
			group := items[first : first+4 : first+4]
			k0, k1, k2, k3 := group[0].key, group[1].key, group[2].key, group[3].key
			o01 := 0
			if k1 < k0 {
				o01 = 1
			}
			o23 := 2
			if k3 < k2 {
				o23 = 3
			}
			m01, m23 := min(k0, k1), min(k2, k3)
			if m23 < m01 {
				o01 = o23
			}
			best, bestKey = first+o01, min(m01, m23)
		} else {
			for c := first + 1; c < n; c++ {
				if k := items[c].key; k < bestKey {
					best, bestKey = c, k
				}
			}
		}
		if bestKey >= it.key {
			break
		}
		items[i] = items[best]
		pos[items[i].vertex] = int32(i)
		i = best
	}
	items[i] = it
	pos[it.vertex] = int32(i)
}
