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
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/paths"
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
	w0, c0 := time.Now(), cpuSeconds()
	h, err := hierarchy.Build(context.Background(), g, opts...)
	if err != nil {
		log.Fatal(err)
	}
	bw, bc := time.Since(w0).Seconds(), cpuSeconds()-c0
	fmt.Printf("build wall_s=%.2f cpu_s=%.2f shortcuts=%d up_arcs=%d down_arcs=%d rounds=%d peak_rss_mb=%d\n",
		bw, bc, h.Shortcuts(), h.Up.M(), h.Down.M(), h.Rounds, peakRSSMB())
	runtime.GC()

	n := g.N
	table(h, "table200", span(0, 200), span(n/2, 200), *workers, *reps)
	table(h, "table1000", span(0, 1000), span(n/2, 1000), *workers, *reps)
	rng := splitMix64(1)
	rs, rt := make([]int32, 1000), make([]int32, 1000)
	for i := range rs {
		rs[i] = int32(rng.next() % uint64(n))
	}
	for i := range rt {
		rt[i] = int32(rng.next() % uint64(n))
	}
	table(h, "random1000", rs, rt, *workers, *reps)
	fmt.Printf("peak_rss_mb=%d\n", peakRSSMB())
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
	best, wallTotal, cpuTotal := 1e300, 0.0, 0.0
	for range reps {
		w0, c0 := time.Now(), cpuSeconds()
		out = run()
		w := time.Since(w0).Seconds()
		best = min(best, w)
		wallTotal += w
		cpuTotal += cpuSeconds() - c0
	}
	var sum, unreachable uint64
	for _, d := range out {
		if d == paths.Unreachable {
			unreachable++
		} else {
			sum += uint64(d)
		}
	}
	fmt.Printf("%-16s %dx%d reps=%d wall_best_s=%.4f wall_mean_s=%.4f cpu_mean_s=%.4f sum=%d unreachable=%d\n",
		name, len(sources), len(targets), reps, best, wallTotal/float64(reps), cpuTotal/float64(reps), sum, unreachable)
}

func span(from, count int32) []int32 {
	v := make([]int32, count)
	for i := range v {
		v[i] = from + int32(i)
	}
	return v
}

// splitMix64 is the generator every harness of scripts/compare uses for
// the random endpoints.
type splitMix64 uint64

func (s *splitMix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func peakRSSMB() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss / 1024
}

// readGr reads a DIMACS .gr file into an edge list with 0-based ids.
func readGr(path string) *graph.EdgeList {
	var e *graph.EdgeList
	eachLine(path, func(f [][]byte) {
		switch string(f[0]) {
		case "p":
			n, m := atoi(f[2]), atoi(f[3])
			e = graph.NewEdgeList(int32(n), int(m))
		case "a":
			if e == nil {
				log.Fatalf("%s: arc before the problem line", path)
			}
			u, v := atoi(f[1])-1, atoi(f[2])-1
			if u < 0 || v < 0 || u >= int64(e.N) || v >= int64(e.N) {
				log.Fatalf("%s: arc %d -> %d outside 1..%d", path, u+1, v+1, e.N)
			}
			e.Add(int32(u), int32(v), int32(atoi(f[3])))
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
	eachLine(path, func(f [][]byte) {
		if string(f[0]) == "v" {
			v := atoi(f[1]) - 1
			if v < 0 || v >= int64(n) {
				log.Fatalf("%s: vertex %d outside 1..%d", path, v+1, n)
			}
			x[v], y[v] = int32(atoi(f[2])), int32(atoi(f[3]))
		}
	})
	return x, y
}

func eachLine(path string, body func(fields [][]byte)) {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		if fields := bytes.Fields(s.Bytes()); len(fields) > 0 {
			body(fields)
		}
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
}

func atoi(b []byte) int64 {
	v, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		log.Fatal(err)
	}
	return v
}
