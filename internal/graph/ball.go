package graph

// Ball returns the subgraph induced by up to size vertices that a
// breadth-first search over out-arcs reaches from root, renumbered 0.. in
// the order reached, with their arcs among themselves (weights kept): a
// connected region to try something on before doing it to the whole
// graph, such as contracting it (a sample of a road network is a smaller
// road network, where a sample of random vertices would be a scatter of
// isolated ones). Where the search runs out before size vertices, it goes
// on from the next vertex by id after root that it has not reached. The
// result depends only on c, root and size. O(n) for the numbering, plus
// the arcs of the vertices reached.
func (c *CSR) Ball(root int32, size int) *CSR {
	size = min(max(size, 0), int(c.N))
	index := make([]int32, c.N) // 1 + the vertex's number in the ball; 0: not in it
	order := make([]int32, 0, size)
	take := func(v int32) {
		if index[v] == 0 && len(order) < size {
			order = append(order, v)
			index[v] = int32(len(order))
		}
	}
	next := root
	for head := 0; len(order) < size; head++ {
		if head == len(order) { // the search ran out: a new start
			for index[next] != 0 {
				next = (next + 1) % c.N
			}
			take(next)
		}
		u := order[head]
		for a := c.Offsets[u]; a < c.Offsets[u+1] && len(order) < size; a++ {
			take(c.Targets[a])
		}
	}
	ball := &CSR{N: int32(len(order)), Offsets: make([]int64, len(order)+1)}
	for i, u := range order {
		for a := c.Offsets[u]; a < c.Offsets[u+1]; a++ {
			if k := index[c.Targets[a]]; k != 0 {
				ball.Targets = append(ball.Targets, k-1)
				ball.Weights = append(ball.Weights, c.Weights[a])
			}
		}
		ball.Offsets[i+1] = int64(len(ball.Targets))
	}
	return ball
}
