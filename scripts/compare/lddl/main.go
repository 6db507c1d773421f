// Command lddl_table times github.com/LdDl/ch on a DIMACS graph the way
// scripts/compare/routingkit/ch_table.cpp times RoutingKit and
// scripts/compare/pathflow_table.go times pathflow:
//
//	scripts/compare/lddl/build.sh /path/to/LdDl/ch /tmp/cmp/lddl_table
//	/tmp/cmp/lddl_table -gr /tmp/cmp/road256.gr
//
// This directory is its own module (so the main module's go build, vet and
// test never see it); build.sh points it at a local copy of LdDl/ch with a
// replace directive, its dependencies coming from the Go module proxy.
//
// It reads the .gr (1-based ids; vertex v here is label v, v+1 in the file),
// adds every vertex (CreateVertex) and arc (AddEdge, float64 weight), times
// PrepareContractionHierarchies (one goroutine; the library has no
// parallel build), then times the tables named by -tables, each -reps
// times, with Graph.ShortestPathManyToMany:
//
//	table200     sources 0..199,  targets n/2..n/2+199
//	table1000    sources 0..999,  targets n/2..n/2+999
//	random1000   1,000 sources and 1,000 targets drawn by splitmix64 from
//	             seed 1 (sources first), vertex = draw % n
//
// ShortestPathManyToMany also unpacks every path and keeps an n-long
// float64 and int64 array per source and per target (16 bytes * n * (|S| +
// |T|): 2.1 GB for 1,000 x 1,000 at n = 65,536), so it is the library's
// table, not a bucket-only one. Checksums: the sum of finite distances and
// the count of unreachable cells (cost -1).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/LdDl/ch"
)

func main() {
	gr := flag.String("gr", "", "DIMACS .gr file")
	reps := flag.Int("reps", 3, "calls per table")
	tables := flag.String("tables", "table200,table1000,random1000", "tables to time")
	flag.Parse()
	if *gr == "" {
		log.Fatal("lddl_table: -gr is required")
	}
	runtime.GOMAXPROCS(1)

	start := time.Now()
	g := readGr(*gr)
	n := int64(len(g.Vertices))
	fmt.Printf("tool=lddl graph=%s n=%d m=%d read_wall_s=%.2f\n", *gr, n, g.GetEdgesNum(), time.Since(start).Seconds())
	runtime.GC()

	w0, c0 := time.Now(), cpuSeconds()
	g.PrepareContractionHierarchies()
	fmt.Printf("build wall_s=%.2f cpu_s=%.2f shortcuts=%d peak_rss_mb=%d\n",
		time.Since(w0).Seconds(), cpuSeconds()-c0, g.GetShortcutsNum(), peakRSSMB())
	runtime.GC()

	want := map[string]bool{}
	for _, t := range strings.Split(*tables, ",") {
		want[strings.TrimSpace(t)] = true
	}
	if want["table200"] {
		table(g, "table200", span(0, 200), span(n/2, 200), *reps)
	}
	if want["table1000"] {
		table(g, "table1000", span(0, 1000), span(n/2, 1000), *reps)
	}
	if want["random1000"] {
		rng := splitMix64(1)
		rs, rt := make([]int64, 1000), make([]int64, 1000)
		for i := range rs {
			rs[i] = int64(rng.next() % uint64(n))
		}
		for i := range rt {
			rt[i] = int64(rng.next() % uint64(n))
		}
		table(g, "random1000", rs, rt, *reps)
	}
	fmt.Printf("peak_rss_mb=%d\n", peakRSSMB())
}

// table times reps calls of ShortestPathManyToMany and prints their times
// and checksum.
func table(g *ch.Graph, name string, sources, targets []int64, reps int) {
	var out [][]float64
	best, wallTotal, cpuTotal := 1e300, 0.0, 0.0
	for range reps {
		w0, c0 := time.Now(), cpuSeconds()
		out, _ = g.ShortestPathManyToMany(sources, targets)
		w := time.Since(w0).Seconds()
		best = min(best, w)
		wallTotal += w
		cpuTotal += cpuSeconds() - c0
	}
	var sum, unreachable uint64
	for _, row := range out {
		for _, d := range row {
			switch {
			case d < 0 || d >= ch.Infinity:
				unreachable++
			case d != math.Trunc(d):
				log.Fatalf("%s: distance %v is not an integer", name, d)
			default:
				sum += uint64(d)
			}
		}
	}
	fmt.Printf("%-10s %dx%d reps=%d wall_best_s=%.4f wall_mean_s=%.4f cpu_mean_s=%.4f sum=%d unreachable=%d\n",
		name, len(sources), len(targets), reps, best, wallTotal/float64(reps), cpuTotal/float64(reps), sum, unreachable)
}

func span(from, count int64) []int64 {
	v := make([]int64, count)
	for i := range v {
		v[i] = from + int64(i)
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

// readGr reads a DIMACS .gr file into a new ch.Graph, labels 0-based.
func readGr(path string) *ch.Graph {
	g := ch.NewGraph()
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	var n int64 = -1
	for s.Scan() {
		fields := bytes.Fields(s.Bytes())
		if len(fields) == 0 {
			continue
		}
		switch string(fields[0]) {
		case "p":
			n = atoi(fields[2])
			for v := range n {
				if err := g.CreateVertex(v); err != nil {
					log.Fatal(err)
				}
			}
		case "a":
			u, v := atoi(fields[1])-1, atoi(fields[2])-1
			if u < 0 || v < 0 || u >= n || v >= n {
				log.Fatalf("%s: arc %d -> %d outside 1..%d", path, u+1, v+1, n)
			}
			if err := g.AddEdge(u, v, float64(atoi(fields[3]))); err != nil {
				log.Fatal(err)
			}
		}
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
	if n < 0 {
		log.Fatalf("%s: no problem line", path)
	}
	return g
}

func atoi(b []byte) int64 {
	v, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		log.Fatal(err)
	}
	return v
}
