package graph

// StrongComponents labels every vertex of g with its strongly connected
// component: comp[v] is in 0..len(sizes)-1 and sizes[c] is the number of
// vertices of component c. Components are numbered in the order of their
// smallest vertex (vertex 0 is in component 0, the smallest vertex outside
// it in component 1, and so on), so the labels depend on the graph only,
// not on the order of its arcs.
//
// The search is Pearce's space-efficient variant of Tarjan's algorithm,
// written as a loop over an explicit stack: road graphs have depth-first
// paths of millions of vertices, far beyond what recursion should hold.
// O(n + m) time. Memory is 16 bytes a vertex, allocated up front, plus 4
// bytes a component for sizes: comp itself (4 bytes, which holds the
// search's indices and is relabelled in place), one int32 array shared by
// the depth-first stack and the stack of vertices waiting for their
// component's root (4 bytes; a vertex is on at most one of them, and it
// becomes the relabelling table afterwards), and the arc cursor of each
// depth-first frame (8 bytes, as deep as the graph's longest depth-first
// path can go).
func StrongComponents(g *CSR) (comp []int32, sizes []int32) {
	n := g.N
	// rank is comp during the search: 0 for a vertex not reached yet; for
	// a vertex whose component is still open, the smallest preorder rank
	// (counted among open vertices, from 1) it is known to reach; for a
	// vertex whose component is closed, a label counting down from n.
	// An open rank is at most the number of open vertices and a label
	// exceeds n minus the number of closed ones, so every open rank is
	// below every label and a closed vertex never lowers an open one.
	rank := make([]int32, n)
	// stack[:depth] is the depth-first path; stack[waiting:] holds the
	// finished vertices whose component's root is still on the path,
	// most recent at stack[waiting].
	stack := make([]int32, n)
	// cursor[i] is the next arc of stack[i] to look at, bitwise negated
	// once stack[i] has been lowered (it then cannot be its component's
	// root).
	cursor := make([]int64, n)
	depth, waiting := int32(0), n
	nextRank := int64(1) // one more than the number of open vertices
	label := n           // the label the next closed component gets

	for root := range n {
		if rank[root] != 0 {
			continue
		}
		rank[root] = int32(nextRank)
		nextRank++
		stack[0], cursor[0], depth = root, g.Offsets[root], 1
		for depth > 0 {
			v := stack[depth-1]
			at, lowered := cursor[depth-1], false
			if at < 0 {
				at, lowered = ^at, true
			}
			rv := rank[v]
			end := g.Offsets[v+1]
			descended := false
			for ; at < end; at++ {
				w := g.Targets[at]
				rw := rank[w]
				if rw == 0 {
					// Come back to this arc after w is done: rank[w]
					// may then lower v, as in the recursive form.
					rank[v] = rv
					if lowered {
						cursor[depth-1] = ^at
					} else {
						cursor[depth-1] = at
					}
					rank[w] = int32(nextRank)
					nextRank++
					stack[depth], cursor[depth] = w, g.Offsets[w]
					depth++
					descended = true
					break
				}
				if rw < rv {
					rv, lowered = rw, true
				}
			}
			if descended {
				continue
			}
			depth--
			if lowered {
				rank[v] = rv
				waiting--
				stack[waiting] = v
				continue
			}
			// v is the root of its component: close it together with the
			// waiting vertices it reaches, which were all pushed after v.
			for waiting < n && rv <= rank[stack[waiting]] {
				rank[stack[waiting]] = label
				waiting++
				nextRank--
			}
			rank[v] = label
			nextRank--
			label--
		}
	}

	// Relabel: closed labels run from n down to label+1; number them by
	// their smallest vertex, through the now free stack.
	count := n - label
	renumber := stack[:count]
	for i := range renumber {
		renumber[i] = -1
	}
	sizes = make([]int32, 0, count)
	for v := range n {
		slot := n - rank[v]
		if renumber[slot] < 0 {
			renumber[slot] = int32(len(sizes))
			sizes = append(sizes, 0)
		}
		c := renumber[slot]
		rank[v] = c
		sizes[c]++
	}
	return rank, sizes
}

// Largest returns the component with the most vertices, the smallest label
// on a tie, or -1 when sizes is empty. O(len(sizes)).
func Largest(sizes []int32) int32 {
	best := int32(-1)
	for c, size := range sizes {
		if best < 0 || size > sizes[best] {
			best = int32(c)
		}
	}
	return best
}
