package generate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/pathflow/pathflow/internal/graph"
)

// Road network shape. A road graph is synthetic: a side x side grid of
// intersections RoadSpacing metres apart whose streets come in three
// classes. Every RoadArterialEvery-th row and column is an arterial, every
// RoadHighwayEvery-th a highway; the rest are local streets, of which only
// a random spanning tree and a RoadExtraLocal share of the others are kept,
// which leaves about 2.5 arcs per vertex, as in the DIMACS USA road graphs.
const (
	// RoadSpacing is the distance between neighbouring intersections
	// before jitter, in metres.
	RoadSpacing = 100
	// RoadJitter is the largest shift of an intersection along each axis,
	// in metres.
	RoadJitter = 30
	// RoadArterialEvery and RoadHighwayEvery are the spacings of arterial
	// and highway lines, in rows (and columns).
	RoadArterialEvery = 8
	RoadHighwayEvery  = 64
	// RoadExtraLocal is the share of local streets kept beyond those a
	// spanning tree needs, unless a spec says otherwise (RoadSpec.Local):
	// 0.25 gives about 2.5 arcs per vertex, 0.75 about 3.5.
	RoadExtraLocal = 0.25
)

// roadSpeed gives the speed range of each street class in km/h: local,
// arterial, highway. Each street segment draws its own speed from it.
var roadSpeed = [3][2]float64{{24, 36}, {45, 60}, {90, 120}}

// RoadSpec is a parsed "road:side=...,seed=..." generator spec.
type RoadSpec struct {
	// Side is the grid side; the graph has Side^2 vertices.
	Side int32
	// Seed picks the graph.
	Seed uint64
	// Local is the share of local streets kept beyond a spanning tree's,
	// in 0..1 (RoadExtraLocal unless given): the graph's density.
	Local float64
}

// ParseRoadSpec parses the parameters of a road spec (the part after
// "road:"), such as "side=1024,seed=1"; a parameter left out takes its
// default (side 1024, seed 1). O(len(args)).
func ParseRoadSpec(args string) (RoadSpec, error) {
	spec := RoadSpec{Side: 1024, Seed: 1, Local: RoadExtraLocal}
	if strings.TrimSpace(args) == "" {
		return spec, nil
	}
	for _, kv := range strings.Split(args, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return spec, fmt.Errorf("generate: road parameter %q is not name=value", kv)
		}
		switch k {
		case "side":
			side, err := strconv.ParseInt(v, 10, 32)
			if err != nil || side < 1 || side > 46340 {
				return spec, fmt.Errorf("generate: road side %q is not an integer in 1..46340", v)
			}
			spec.Side = int32(side)
		case "seed":
			seed, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return spec, fmt.Errorf("generate: road seed %q is not an unsigned integer", v)
			}
			spec.Seed = seed
		case "local":
			local, err := strconv.ParseFloat(v, 64)
			if err != nil || local < 0 || local > 1 {
				return spec, fmt.Errorf("generate: road local %q is not a number in 0..1", v)
			}
			spec.Local = local
		default:
			return spec, fmt.Errorf("generate: road has no parameter %q (want side, seed, local)", k)
		}
	}
	return spec, nil
}

// String renders the spec in canonical form, parameters in name order:
// "road:seed=1,side=1024", with local only when it is not the default
// ("road:local=0.75,seed=1,side=1024"), so that the graphs of older
// specs keep their names.
func (s RoadSpec) String() string {
	if s.Local != RoadExtraLocal {
		return fmt.Sprintf("road:local=%s,seed=%d,side=%d", strconv.FormatFloat(s.Local, 'g', -1, 64), s.Seed, s.Side)
	}
	return fmt.Sprintf("road:seed=%d,side=%d", s.Seed, s.Side)
}

// Road returns a synthetic road-like network over a side x side grid of
// intersections and their coordinates in metres. Vertex r*side + c sits
// near (c, r) * RoadSpacing, shifted by up to RoadJitter on each axis.
// Streets are local, arterial or highway (see RoadSpacing); arterial and
// highway segments are all kept, local ones are those of a random spanning
// tree plus a RoadExtraLocal share of the rest, so the graph is always
// connected. Every kept street gives an arc each way with the same weight:
// its travel time in hundredths of a second, Euclidean length over a speed
// drawn per segment for its class, at least 1.
//
// Arcs come grouped by source in vertex order; each vertex lists its
// right, left, down and up neighbours, skipping removed streets. The same
// side and seed give the same graph everywhere. O(side^2) time and memory
// (a union-find keeps the spanning tree, near-linear).
func Road(side int32, seed uint64) (*graph.EdgeList, *graph.Vertices, error) {
	return RoadOf(RoadSpec{Side: side, Seed: seed, Local: RoadExtraLocal})
}

// RoadOf is Road for a spec, whose Local sets the share of extra local
// streets (Road's RoadExtraLocal).
func RoadOf(spec RoadSpec) (*graph.EdgeList, *graph.Vertices, error) {
	side, seed := spec.Side, spec.Seed
	if spec.Local < 0 || spec.Local > 1 {
		return nil, nil, fmt.Errorf("generate: road local %v is outside 0..1", spec.Local)
	}
	if side < 1 {
		return nil, nil, fmt.Errorf("generate: road side %d is not positive", side)
	}
	if int64(side)*int64(side) > math.MaxInt32 {
		return nil, nil, fmt.Errorf("generate: road side %d gives more than %d vertices", side, math.MaxInt32)
	}
	s := int(side)
	n := s * s
	vs := roadCoordinates(s, seed)
	hEdges := s * (s - 1) // horizontal segment r*(s-1)+c joins (r, c) and (r, c+1)
	edges := 2 * hEdges   // vertical segment hEdges+r*s+c joins (r, c) and (r+1, c)
	ends := func(id int) (int, int) {
		if id < hEdges {
			r, c := id/(s-1), id%(s-1)
			return r*s + c, r*s + c + 1
		}
		id -= hEdges
		return id, id + s
	}
	class := func(id int) int { // 0 local, 1 arterial, 2 highway
		line := 0 // the row of a horizontal segment, the column of a vertical one
		if id < hEdges {
			line = id / (s - 1)
		} else {
			line = (id - hEdges) % s
		}
		switch {
		case line%RoadHighwayEvery == RoadHighwayEvery/2:
			return 2
		case line%RoadArterialEvery == RoadArterialEvery/2:
			return 1
		}
		return 0
	}
	kept := roadKeep(n, edges, ends, class, seed, spec.Local)

	// Weights: travel time from the jittered length and a speed per segment.
	weight := make([]int32, edges)
	rng := rand.New(stream(seed, 1<<40+2))
	for id := range edges {
		if !kept[id] {
			continue
		}
		u, v := ends(id)
		dx, dy := float64(vs.X[u]-vs.X[v]), float64(vs.Y[u]-vs.Y[v])
		speed := roadSpeed[class(id)]
		kmh := speed[0] + (speed[1]-speed[0])*rng.Float64()
		centiseconds := math.Round(math.Hypot(dx, dy) / (kmh / 3.6) * 100)
		weight[id] = int32(max(1, centiseconds))
	}

	m := 0
	for _, k := range kept {
		if k {
			m += 2
		}
	}
	e := graph.NewEdgeList(side*side, m)
	for r := range s {
		for c := range s {
			u := int32(r*s + c)
			if c+1 < s {
				if id := r*(s-1) + c; kept[id] {
					e.Add(u, u+1, weight[id])
				}
			}
			if c > 0 {
				if id := r*(s-1) + c - 1; kept[id] {
					e.Add(u, u-1, weight[id])
				}
			}
			if r+1 < s {
				if id := hEdges + r*s + c; kept[id] {
					e.Add(u, u+side, weight[id])
				}
			}
			if r > 0 {
				if id := hEdges + (r-1)*s + c; kept[id] {
					e.Add(u, u-side, weight[id])
				}
			}
		}
	}
	return e, vs, nil
}

// roadCoordinates places vertex r*s + c at (c, r) * RoadSpacing shifted by
// up to RoadJitter metres on each axis. O(s^2).
func roadCoordinates(s int, seed uint64) *graph.Vertices {
	n := s * s
	vs := &graph.Vertices{X: make([]int32, n), Y: make([]int32, n)}
	rng := rand.New(stream(seed, 1<<40+1))
	for v := range n {
		vs.X[v] = int32(v%s*RoadSpacing) + int32(rng.IntN(2*RoadJitter+1)) - RoadJitter
		vs.Y[v] = int32(v/s*RoadSpacing) + int32(rng.IntN(2*RoadJitter+1)) - RoadJitter
	}
	return vs
}

// roadKeep decides which street segments stay: every arterial and highway
// one, then the local ones in a random order, each kept when it joins two
// parts not yet connected (a random spanning tree, so the graph stays
// connected) or else with probability extra (RoadExtraLocal by default).
// O(edges) plus the near-linear union-find.
func roadKeep(n, edges int, ends func(int) (int, int), class func(int) int, seed uint64, extra float64) []bool {
	kept := make([]bool, edges)
	parent := make([]int32, n)
	for v := range parent {
		parent[v] = int32(v)
	}
	find := func(v int32) int32 {
		for parent[v] != v {
			parent[v] = parent[parent[v]]
			v = parent[v]
		}
		return v
	}
	union := func(id int) bool {
		u, v := ends(id)
		a, b := find(int32(u)), find(int32(v))
		if a == b {
			return false
		}
		parent[a] = b
		return true
	}
	// A random order of the local segments: a counting sort on a random
	// 16-bit key, stable, so ties keep their (deterministic) grid order.
	rng := rand.New(stream(seed, 1<<40))
	const keys = 1 << 16
	key := make([]uint16, edges)
	count := make([]int, keys+1)
	for id := range edges {
		if class(id) != 0 {
			kept[id] = true
			union(id)
			continue
		}
		key[id] = uint16(rng.Uint32())
		count[int(key[id])+1]++
	}
	for k := range keys {
		count[k+1] += count[k]
	}
	order := make([]int32, count[keys])
	for id := range edges {
		if class(id) == 0 {
			order[count[key[id]]] = int32(id)
			count[key[id]]++
		}
	}
	for _, id := range order {
		joins := union(int(id))
		kept[id] = joins || rng.Float64() < extra
	}
	return kept
}
