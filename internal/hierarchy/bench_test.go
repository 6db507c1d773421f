package hierarchy

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/pathflow/pathflow/formats/osmroads"
	"github.com/pathflow/pathflow/formats/osmroads/osmroadstest"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
)

// fixture is a graph and its hierarchy, built once per benchmark binary.
type fixture struct {
	g *graph.CSR
	h *Hierarchy
}

var (
	fixtures   = map[string]*fixture{}
	fixturesMu sync.Mutex
)

// roadFixture returns road:side=side,seed=1 (or the plain grid with
// uniform weights in [1, 1000] when grid is set) and its hierarchy.
func roadFixture(b *testing.B, side int32, grid bool) *fixture {
	b.Helper()
	key := fmt.Sprint(side, grid)
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	if f, ok := fixtures[key]; ok {
		return f
	}
	e, vs := benchGraph(b, side, grid)
	g := graph.BuildCSR(e)
	h, err := Build(context.Background(), g, WithCoordinates(vs.X, vs.Y))
	if err != nil {
		b.Fatal(err)
	}
	f := &fixture{g: g, h: h}
	fixtures[key] = f
	return f
}

// benchGraph returns road:side=side,seed=1, or the plain grid with
// uniform weights in [1, 1000] when grid is set, and coordinates.
func benchGraph(b *testing.B, side int32, grid bool) (*graph.EdgeList, *graph.Vertices) {
	b.Helper()
	if !grid {
		e, vs, err := generate.Road(side, 1)
		if err != nil {
			b.Fatal(err)
		}
		return e, vs
	}
	e, err := generate.Grid(side, 1, 1000, 1)
	if err != nil {
		b.Fatal(err)
	}
	vs := &graph.Vertices{X: make([]int32, e.N), Y: make([]int32, e.N)}
	for v := range e.N {
		vs.X[v], vs.Y[v] = v%side, v/side
	}
	return e, vs
}

// reportCPU starts counting the process's CPU time; the function it
// returns reports it per operation as cpu-s/op, the steadier figure when a
// shared machine makes wall times noisy.
func reportCPU(b *testing.B) func() {
	start := cpuSeconds()
	return func() { b.ReportMetric((cpuSeconds()-start)/float64(b.N), "cpu-s/op") }
}

// peakRSS returns the process's peak resident set (VmHWM) in bytes, or 0
// where /proc does not tell it. The growth across Build, with the graph
// already made, is the memory the build itself needs at its peak.
func peakRSS() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// searchSpace returns the mean number of vertices a forward upward search
// settles without stalling, over 1000 random sources.
func searchSpace(h *Hierarchy) float64 {
	rng := rand.New(rand.NewPCG(7, 7))
	s := newUpSearch(h.N)
	total := 0
	for range 1000 {
		s.run(h, true, rng.Int32N(h.N), false)
		total += len(s.settled)
	}
	return float64(total) / 1000
}

// delawareGraph returns the car network of the Delaware extract
// (OpenStreetMap, (c) OpenStreetMap contributors, ODbL), weighted by travel
// time in milliseconds, with its coordinates; it skips b where the extract
// is absent.
func delawareGraph(b testing.TB) (*graph.EdgeList, *graph.Vertices) {
	b.Helper()
	path := osmroadstest.Extract(b, osmroadstest.Delaware)
	open := func(osmroads.Pass) (io.ReadCloser, error) { return os.Open(path) }
	net, err := osmroads.Read(context.Background(), path, open, osmroads.Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	return net.Edges, net.Vertices
}

// benchBuild builds the hierarchy of road:side=side,seed=1 (or the plain
// grid) and reports its size, its search space and the CPU time of one
// 1,000 x 1,000 table on it.
func benchBuild(b *testing.B, side int32, grid bool, opts ...Option) {
	e, vs := benchGraph(b, side, grid)
	benchBuildOf(b, e, vs, opts...)
}

// benchBuildOf is benchBuild on the graph e with coordinates vs.
func benchBuildOf(b *testing.B, e *graph.EdgeList, vs *graph.Vertices, opts ...Option) {
	g := graph.BuildCSR(e)
	opts = append(opts, WithCoordinates(vs.X, vs.Y))
	var h *Hierarchy
	var err error
	hwm := peakRSS()
	done := reportCPU(b)
	for b.Loop() {
		if h, err = Build(context.Background(), g, opts...); err != nil {
			b.Fatal(err)
		}
	}
	done()
	if after := peakRSS(); hwm > 0 && after > 0 {
		b.ReportMetric(float64(after-hwm)/1e6, "build-peak-MB")
	}
	b.ReportMetric(float64(h.Shortcuts()), "shortcuts")
	b.ReportMetric(float64(h.Rounds), "rounds")
	b.ReportMetric(searchSpace(h), "search-space")
	rng := rand.New(rand.NewPCG(1, 5))
	start := cpuSeconds()
	if _, err := h.Table(randomVertices(rng, h.N, 1000), randomVertices(rng, h.N, 1000), 0); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric((cpuSeconds()-start)*1000, "table1000-cpu-ms")
}

func BenchmarkBuildRoad256(b *testing.B) { benchBuild(b, 256, false) }
func BenchmarkBuildGrid256(b *testing.B) { benchBuild(b, 256, true) }
func BenchmarkBuildGrid512(b *testing.B) { benchBuild(b, 512, true) }

// BenchmarkBuildRoad512 compares the orderings.
func BenchmarkBuildRoad512(b *testing.B) {
	for _, ord := range []Ordering{OrderQuotient, OrderEdgeDifference} {
		b.Run("ordering="+ord.String(), func(b *testing.B) { benchBuild(b, 512, false, WithOrdering(ord)) })
	}
}

func BenchmarkBuildRoad1024(b *testing.B) { benchBuild(b, 1024, false) }

// BenchmarkBuildDelaware builds the hierarchy of a real road network with
// one-way streets (73,673 vertices, 175,332 arcs by travel time), so the
// directed contraction.
func BenchmarkBuildDelaware(b *testing.B) {
	e, vs := delawareGraph(b)
	benchBuildOf(b, e, vs)
}

// BenchmarkBuildRoad2048 is the largest size here (4M vertices); with
// BenchmarkBuildRoad1024 it gives the growth of build-peak-MB with the
// graph.
func BenchmarkBuildRoad2048(b *testing.B) { benchBuild(b, 2048, false) }

func benchTable(b *testing.B, side int32, k int) {
	f := roadFixture(b, side, false)
	rng := rand.New(rand.NewPCG(1, 2))
	sources, targets := randomVertices(rng, f.h.N, k), randomVertices(rng, f.h.N, k)
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := f.h.Table(sources, targets, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTable200Road1024(b *testing.B)  { benchTable(b, 1024, 200) }
func BenchmarkTable1000Road1024(b *testing.B) { benchTable(b, 1024, 1000) }

// BenchmarkTreesRoad1024 reports PHAST's time per tree, amortised over 64
// sources (8 sweeps of 8).
func BenchmarkTreesRoad1024(b *testing.B) {
	f := roadFixture(b, 1024, false)
	sources := randomVertices(rand.New(rand.NewPCG(1, 3)), f.h.N, 64)
	dist := make([]int64, len(sources)*int(f.h.N))
	start := cpuSeconds()
	for b.Loop() {
		if err := f.h.Trees(sources, dist, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(sources)), "ms/tree")
	b.ReportMetric((cpuSeconds()-start)*1000/float64(b.N*len(sources)), "cpu-ms/tree")
}

func BenchmarkQueryRoad1024(b *testing.B) {
	f := roadFixture(b, 1024, false)
	rng := rand.New(rand.NewPCG(1, 4))
	q := NewQuery(f.h)
	for b.Loop() {
		if _, err := q.Distance(rng.Int32N(f.h.N), rng.Int32N(f.h.N)); err != nil {
			b.Fatal(err)
		}
	}
}
