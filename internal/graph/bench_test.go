package graph_test

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
)

// benchSides are the benchmark grids: 2,000 (4.0 M vertices, 16.0 M arcs)
// and 4,900 (24.0 M vertices, 96.0 M arcs, the largest run in
// docs/performance.md). Pick one with -bench '/side=2000'.
var benchSides = []int32{2000, 4900}

// benchGrids builds each benchmark grid and its CSR once per process.
var benchGrids = map[int32]func() (*graph.EdgeList, *graph.CSR){}

func init() {
	for _, side := range benchSides {
		benchGrids[side] = sync.OnceValues(func() (*graph.EdgeList, *graph.CSR) {
			e, err := generate.Grid(side, 1, 1000, 1)
			if err != nil {
				panic(err)
			}
			return e, graph.BuildCSR(e)
		})
	}
}

// benchOnGrids runs f on every benchmark grid, once on one thread (the
// sequential sort) and once on all of them, so one run compares the two
// paths.
func benchOnGrids(b *testing.B, f func(e *graph.EdgeList, c *graph.CSR)) {
	for _, side := range benchSides {
		for _, procs := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("side=%d/procs=%d", side, procs), func(b *testing.B) {
				e, c := benchGrids[side]()
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				for b.Loop() {
					f(e, c)
				}
			})
		}
	}
}

// BuildCSR of a generated grid takes the shortcut for input sorted by
// source.
func BenchmarkBuildCSR(b *testing.B) {
	benchOnGrids(b, func(e *graph.EdgeList, _ *graph.CSR) { graph.BuildCSR(e) })
}

func BenchmarkBuildReverseCSR(b *testing.B) {
	benchOnGrids(b, func(e *graph.EdgeList, _ *graph.CSR) { graph.BuildReverseCSR(e) })
}

func BenchmarkReverse(b *testing.B) {
	benchOnGrids(b, func(_ *graph.EdgeList, c *graph.CSR) { c.Reverse() })
}

// benchRoadSide gives the road benchmark graphs 1,000^2 = 1 M vertices.
const benchRoadSide = 1000

// benchRoads builds, once per process, a 1 M-vertex road network whose
// streets all run both ways (one strongly connected component) and the
// same network with oneWayShare of its streets turned one-way, which
// splits off dead ends and one-way loops as OpenStreetMap data has them.
var benchRoads = sync.OnceValues(func() (twoWay, oneWay *graph.CSR) {
	const oneWayShare = 0.15
	e, _, err := generate.Road(benchRoadSide, 1)
	if err != nil {
		panic(err)
	}
	directed := graph.NewEdgeList(e.N, e.M())
	for i, u := range e.Src {
		v := e.Dst[i]
		// Both arcs of a street hash alike, so a one-way street keeps
		// exactly one of them: the one the hash's low bit picks.
		a, b := min(u, v), max(u, v)
		h := (uint64(a)<<32 | uint64(b)) * 0x9e3779b97f4a7c15
		oneWay := float64(h>>40)/float64(1<<24) < oneWayShare
		if !oneWay || (h&1 == 0) == (u < v) {
			directed.Add(u, v, e.Weight[i])
		}
	}
	return graph.BuildCSR(e), graph.BuildCSR(directed)
})

// BenchmarkStrongComponents reports the time per vertex; the two graphs
// show what splitting into many components costs.
func BenchmarkStrongComponents(b *testing.B) {
	twoWay, oneWay := benchRoads()
	for _, c := range []struct {
		name string
		g    *graph.CSR
	}{{"road=two-way", twoWay}, {"road=one-way-15%", oneWay}} {
		b.Run(c.name, func(b *testing.B) {
			var sizes []int32
			for b.Loop() {
				_, sizes = graph.StrongComponents(c.g)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.g.N), "ns/vertex")
			b.ReportMetric(float64(len(sizes)), "components")
			b.ReportMetric(float64(sizes[graph.Largest(sizes)])/float64(c.g.N), "largest-share")
		})
	}
}
