package osmroads

import (
	"math"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
)

// build makes the network of the routable ways once both passes are read:
// it marks the routing nodes, merges the chains between them into arcs
// (emit), numbers the vertices and, when asked, keeps the largest
// strongly connected component. O(references + arcs).
func build(ways *wayTable, nodes *nodeTable, opts Options) *Network {
	stats := Stats{Ways: int64(ways.len()), WayNodes: int64(len(nodes.id))}
	for _, f := range nodes.flags {
		if f&nodePresent == 0 {
			stats.MissingNodes++
		}
		if f&nodeBarrier != 0 {
			stats.Barriers++
		}
		if f&nodeBlocking != 0 {
			stats.Blocking++
		}
	}
	markRoutingNodes(ways, nodes, opts.KeepAllNodes)
	a := emit(ways, nodes)
	net := a.network(nodes, opts.Weight)
	net.Stats = stats
	restrictToComponents(net, opts.LargestComponent)
	return net
}

// markRoutingNodes flags the nodes that become vertices: every node where
// ways meet or a way crosses itself (used twice), every way's ends, every
// barrier, and, where the extract lacks a node, its neighbours on the
// way, whose road stops there. A way closing on itself through one
// routing node gets a second one half-way round, so that the loop stays
// a road between two vertices rather than a useless self-loop.
func markRoutingNodes(ways *wayTable, nodes *nodeTable, keepAll bool) {
	for i := range ways.len() {
		ref := ways.nodesOf(i)
		for j, v := range ref {
			bump := uint8(1)
			if j == 0 || j == len(ref)-1 {
				bump = 2
			}
			nodes.uses[v] = min(nodes.uses[v]+bump, 2)
		}
	}
	for v, f := range nodes.flags {
		if nodes.uses[v] >= 2 || f&nodeBarrier != 0 || keepAll {
			nodes.flags[v] |= nodeRouting
		}
	}
	for i := range ways.len() {
		ref := ways.nodesOf(i)
		for j, v := range ref {
			if nodes.flags[v]&nodePresent != 0 {
				continue
			}
			if j > 0 {
				nodes.flags[ref[j-1]] |= nodeRouting
			}
			if j+1 < len(ref) {
				nodes.flags[ref[j+1]] |= nodeRouting
			}
		}
	}
	for i := range ways.len() {
		eachPiece(ways.nodesOf(i), nodes.flags, func(piece []int32) {
			if len(piece) > 2 && piece[0] == piece[len(piece)-1] {
				nodes.flags[piece[len(piece)/2]] |= nodeRouting
			}
		})
	}
}

// eachPiece calls f with every stretch of ref between two routing nodes,
// both included, skipping the nodes the extract lacks.
func eachPiece(ref []int32, flags []uint8, f func(piece []int32)) {
	from := -1
	for j, v := range ref {
		if flags[v]&nodePresent == 0 {
			from = -1
			continue
		}
		if flags[v]&nodeRouting == 0 {
			continue
		}
		if from >= 0 {
			f(ref[from : j+1])
		}
		from = j
	}
}

// arcs is the network's arcs over node indices, before the vertices are
// numbered.
type arcs struct {
	tail, head      []int32
	timeMS, lengthM []int32
	way             []int64
	geometry        Geometry
}

// emit makes the arcs of every way, in way order: for each piece between
// routing nodes, the forward arc, then the backward one, where the way's
// rule allows the direction and the arc does not leave a blocking barrier
// (a vehicle may drive up to a bollard, not through it).
func emit(ways *wayTable, nodes *nodeTable) *arcs {
	a := &arcs{geometry: Geometry{Offsets: []int64{0}}}
	for i := range ways.len() {
		fwd, bwd := float64(ways.fwd[i]), float64(ways.bwd[i])
		eachPiece(ways.nodesOf(i), nodes.flags, func(piece []int32) {
			u, v := piece[0], piece[len(piece)-1]
			if u == v {
				return
			}
			metres := 0.0
			for k := 1; k < len(piece); k++ {
				p, q := piece[k-1], piece[k]
				metres += distance(nodes.x[p], nodes.y[p], nodes.x[q], nodes.y[q])
			}
			inner := piece[1 : len(piece)-1]
			if fwd > 0 && nodes.flags[u]&nodeBlocking == 0 {
				a.add(u, v, metres, fwd, ways.id[i], inner, nodes, false)
			}
			if bwd > 0 && nodes.flags[v]&nodeBlocking == 0 {
				a.add(v, u, metres, bwd, ways.id[i], inner, nodes, true)
			}
		})
	}
	return a
}

// add appends one arc of the given length travelled at kmh along way,
// through the inner nodes (backwards when reversed).
func (a *arcs) add(u, v int32, metres, kmh float64, way int64, inner []int32, nodes *nodeTable, reversed bool) {
	a.tail, a.head = append(a.tail, u), append(a.head, v)
	a.lengthM = append(a.lengthM, roundInt32(metres))
	a.timeMS = append(a.timeMS, roundInt32(metres*3600/kmh)) // m / (km/h) = 3.6 s = 3600 ms per km/h
	a.way = append(a.way, way)
	for k := range inner {
		p := inner[k]
		if reversed {
			p = inner[len(inner)-1-k]
		}
		a.geometry.X, a.geometry.Y = append(a.geometry.X, nodes.x[p]), append(a.geometry.Y, nodes.y[p])
	}
	a.geometry.Offsets = append(a.geometry.Offsets, int64(len(a.geometry.X)))
}

// roundInt32 rounds a non-negative measure to the nearest integer,
// saturating at the largest int32 (24 days in milliseconds).
func roundInt32(x float64) int32 { return int32(min(math.Round(x), math.MaxInt32)) }

// network numbers the vertices (the nodes some arc ends at, in increasing
// node id, which is the table's order) and returns the network weighted
// by the metric.
func (a *arcs) network(nodes *nodeTable, weight Metric) *Network {
	vertexOf := make([]int32, len(nodes.id))
	for i := range vertexOf {
		vertexOf[i] = -1
	}
	for k := range a.tail {
		vertexOf[a.tail[k]], vertexOf[a.head[k]] = 0, 0
	}
	vs := &graph.Vertices{Geographic: true}
	for i := range vertexOf {
		if vertexOf[i] < 0 {
			continue
		}
		vertexOf[i] = int32(len(vs.OriginalID))
		vs.OriginalID = append(vs.OriginalID, nodes.id[i])
		vs.X, vs.Y = append(vs.X, nodes.x[i]), append(vs.Y, nodes.y[i])
	}
	e := &graph.EdgeList{N: int32(len(vs.OriginalID)), Src: a.tail, Dst: a.head, Weight: a.timeMS}
	if weight == Length {
		e.Weight = a.lengthM
	}
	for k := range e.Src {
		e.Src[k], e.Dst[k] = vertexOf[e.Src[k]], vertexOf[e.Dst[k]]
	}
	return &Network{Edges: e, Vertices: vs, TimeMS: a.timeMS, LengthM: a.lengthM, WayID: a.way, Geometry: a.geometry}
}

// restrictToComponents records the strongly connected components of net
// and, with largestOnly, keeps only the largest: its vertices renumbered
// in the same order, its arcs with their metrics, ways and geometry.
func restrictToComponents(net *Network, largestOnly bool) {
	comp, sizes := graph.StrongComponents(graph.BuildCSR(net.Edges))
	net.Stats.Components = int64(len(sizes))
	sorted := make([]int64, len(sizes))
	for i, s := range sizes {
		sorted[i] = int64(s)
	}
	slices.SortFunc(sorted, func(a, b int64) int { return int(b - a) })
	net.Stats.ComponentSizes = sorted[:min(len(sorted), 10)]
	if !largestOnly || len(sizes) <= 1 {
		return
	}
	largest := graph.Largest(sizes)
	keep := make([]bool, net.Edges.N)
	for v, c := range comp {
		keep[v] = c == largest
	}
	sub, old, arcIndex := graph.Keep(net.Edges, keep)
	net.Stats.DroppedVertices = int64(net.Edges.N - sub.N)
	vs := &graph.Vertices{Geographic: true, OriginalID: make([]int64, len(old)), X: make([]int32, len(old)), Y: make([]int32, len(old))}
	for i, o := range old {
		vs.OriginalID[i], vs.X[i], vs.Y[i] = net.Vertices.OriginalID[o], net.Vertices.X[o], net.Vertices.Y[o]
	}
	g := Geometry{Offsets: make([]int64, 1, len(arcIndex)+1)}
	timeMS, lengthM, way := make([]int32, len(arcIndex)), make([]int32, len(arcIndex)), make([]int64, len(arcIndex))
	for i, k := range arcIndex {
		timeMS[i], lengthM[i], way[i] = net.TimeMS[k], net.LengthM[k], net.WayID[k]
		lo, hi := net.Geometry.Offsets[k], net.Geometry.Offsets[k+1]
		g.X, g.Y = append(g.X, net.Geometry.X[lo:hi]...), append(g.Y, net.Geometry.Y[lo:hi]...)
		g.Offsets = append(g.Offsets, int64(len(g.X)))
	}
	net.Edges, net.Vertices = sub, vs
	net.TimeMS, net.LengthM, net.WayID, net.Geometry = timeMS, lengthM, way, g
}
