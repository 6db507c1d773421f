//go:build ignore

// Command pathflow_table times pathflow's contraction hierarchy
// (internal/hierarchy) on a DIMACS graph the same way
// scripts/compare/routingkit/ch_table.cpp times RoutingKit's:
//
//	go build -o /tmp/cmp/pathflow_table scripts/compare/pathflow_table.go
//	/tmp/cmp/pathflow_table -gr /tmp/cmp/road1024.gr -co /tmp/cmp/road1024.co -workers 1
//
// It reads the .gr (1-based ids; vertex v here is v+1 in the file) and the
// optional .co (coordinates, which lay the hierarchy out along a Z curve;
// RoutingKit's build takes none), sets GOMAXPROCS to -workers, builds the
// hierarchy with that many workers, then times three tables, each -reps
// times, with hierarchy.Table on the same workers:
//
//	table200     sources 0..199,  targets n/2..n/2+199
//	table1000    sources 0..999,  targets n/2..n/2+999
//	random1000   1,000 sources and 1,000 targets drawn by splitmix64 from
//	             seed 1 (sources first), vertex = draw % n
//
// For each it prints the best and mean wall time, the mean CPU time (user +
// sys of the process, getrusage) per table, and the checksum: the sum of
// finite distances and the count of unreachable cells, which must equal
// those of the other harnesses.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"runtime"
	"time"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/scripts/compare/harness"
)

func main() {
	gr := flag.String("gr", "", "DIMACS .gr file")
	co := flag.String("co", "", "DIMACS .co file (optional)")
	workers := flag.Int("workers", 1, "workers and GOMAXPROCS")
	reps := flag.Int("reps", 5, "calls per table")
	flag.Parse()
	if *gr == "" {
		log.Fatal("pathflow_table: -gr is required")
	}
	runtime.GOMAXPROCS(*workers)

	start := time.Now()
	e := readGr(*gr)
	var opts []hierarchy.Option
	if *co != "" {
		x, y := readCo(*co, e.N)
		opts = append(opts, hierarchy.WithCoordinates(x, y))
	}
	g := graph.BuildCSR(e)
	e = nil
	fmt.Printf("tool=pathflow graph=%s co=%v n=%d m=%d workers=%d read_wall_s=%.2f\n",
		*gr, *co != "", g.N, g.M(), *workers, time.Since(start).Seconds())
	runtime.GC()

	opts = append(opts, hierarchy.WithWorkers(*workers))
	w0, c0 := time.Now(), harness.CPUSeconds()
	h, err := hierarchy.Build(context.Background(), g, opts...)
	if err != nil {
		log.Fatal(err)
	}
	bw, bc := time.Since(w0).Seconds(), harness.CPUSeconds()-c0
	fmt.Printf("build wall_s=%.2f cpu_s=%.2f shortcuts=%d up_arcs=%d down_arcs=%d rounds=%d peak_rss_mb=%d\n",
		bw, bc, h.Shortcuts(), h.Up.M(), h.Down.M(), h.Rounds, harness.PeakRSSMB())
	runtime.GC()

	n := g.N
	table(h, "table200", harness.Span[int32](0, 200), harness.Span(n/2, 200), *workers, *reps)
	table(h, "table1000", harness.Span[int32](0, 1000), harness.Span(n/2, 1000), *workers, *reps)
	rs, rt := harness.Random(n)
	table(h, "random1000", rs, rt, *workers, *reps)
	fmt.Printf("peak_rss_mb=%d\n", harness.PeakRSSMB())
}

// table times reps calls of h.Table and prints their times and checksum,
// then the same with one hierarchy.Buckets made before the timings and
// refilled per call (Fill, then Rows into one result slice): Table's O(N)
// setup and allocations left out, as the RoutingKit harness makes its
// query object once.
func table(h *hierarchy.Hierarchy, name string, sources, targets []int32, workers, reps int) {
	timeTable(name, sources, targets, reps, func() []int64 {
		out, err := h.Table(sources, targets, workers)
		if err != nil {
			log.Fatal(err)
		}
		return out
	})
	b := hierarchy.NewBuckets(h)
	out := make([]int64, len(sources)*len(targets))
	timeTable(name+"/reuse", sources, targets, reps, func() []int64 {
		if err := b.Fill(targets, workers); err != nil {
			log.Fatal(err)
		}
		if err := b.Rows(sources, out, workers); err != nil {
			log.Fatal(err)
		}
		return out
	})
}

// timeTable times reps calls of run and prints their times and the
// checksum of the last result.
func timeTable(name string, sources, targets []int32, reps int, run func() []int64) {
	var out []int64
	t := harness.Time(reps, func() { out = run() })
	var sum, unreachable uint64
	for _, d := range out {
		if d == paths.Unreachable {
			unreachable++
		} else {
			sum += uint64(d)
		}
	}
	t.Print(16, name, len(sources), len(targets), sum, unreachable)
}

// readGr reads a DIMACS .gr file into an edge list with 0-based ids.
func readGr(path string) *graph.EdgeList {
	var e *graph.EdgeList
	harness.EachLine(path, func(f [][]byte) {
		switch string(f[0]) {
		case "p":
			n, m := harness.Atoi(f[2]), harness.Atoi(f[3])
			e = graph.NewEdgeList(int32(n), int(m))
		case "a":
			if e == nil {
				log.Fatalf("%s: arc before the problem line", path)
			}
			u, v := harness.Atoi(f[1])-1, harness.Atoi(f[2])-1
			if u < 0 || v < 0 || u >= int64(e.N) || v >= int64(e.N) {
				log.Fatalf("%s: arc %d -> %d outside 1..%d", path, u+1, v+1, e.N)
			}
			e.Add(int32(u), int32(v), int32(harness.Atoi(f[3])))
		}
	})
	if e == nil {
		log.Fatalf("%s: no problem line", path)
	}
	return e
}

// readCo reads a DIMACS .co file of n vertices.
func readCo(path string, n int32) (x, y []int32) {
	x, y = make([]int32, n), make([]int32, n)
	harness.EachLine(path, func(f [][]byte) {
		if string(f[0]) == "v" {
			v := harness.Atoi(f[1]) - 1
			if v < 0 || v >= int64(n) {
				log.Fatalf("%s: vertex %d outside 1..%d", path, v+1, n)
			}
			x[v], y[v] = int32(harness.Atoi(f[2])), int32(harness.Atoi(f[3]))
		}
	})
	return x, y
}
