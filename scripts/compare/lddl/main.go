// Command lddl_table times github.com/LdDl/ch on a DIMACS graph the way
// scripts/compare/routingkit/ch_table.cpp times RoutingKit and
// scripts/compare/pathflow_table.go times pathflow:
//
//	scripts/compare/lddl/build.sh /path/to/LdDl/ch /tmp/cmp/lddl_table
//	/tmp/cmp/lddl_table -gr /tmp/cmp/road256.gr
//
// This directory is its own module (so the main module's go build, vet and
// test never see it); build.sh points it at a local copy of LdDl/ch with a
// replace directive, its dependencies coming from the Go module proxy, and
// at this repository for scripts/compare/harness, which it shares with
// pathflow_table.go.
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
	"flag"
	"fmt"
	"log"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/LdDl/ch"

	"github.com/pathflow/pathflow/scripts/compare/harness"
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

	w0, c0 := time.Now(), harness.CPUSeconds()
	g.PrepareContractionHierarchies()
	fmt.Printf("build wall_s=%.2f cpu_s=%.2f shortcuts=%d peak_rss_mb=%d\n",
		time.Since(w0).Seconds(), harness.CPUSeconds()-c0, g.GetShortcutsNum(), harness.PeakRSSMB())
	runtime.GC()

	want := map[string]bool{}
	for _, t := range strings.Split(*tables, ",") {
		want[strings.TrimSpace(t)] = true
	}
	if want["table200"] {
		table(g, "table200", harness.Span[int64](0, 200), harness.Span(n/2, 200), *reps)
	}
	if want["table1000"] {
		table(g, "table1000", harness.Span[int64](0, 1000), harness.Span(n/2, 1000), *reps)
	}
	if want["random1000"] {
		rs, rt := harness.Random(n)
		table(g, "random1000", rs, rt, *reps)
	}
	fmt.Printf("peak_rss_mb=%d\n", harness.PeakRSSMB())
}

// table times reps calls of ShortestPathManyToMany and prints their times
// and checksum.
func table(g *ch.Graph, name string, sources, targets []int64, reps int) {
	var out [][]float64
	t := harness.Time(reps, func() { out, _ = g.ShortestPathManyToMany(sources, targets) })
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
	t.Print(10, name, len(sources), len(targets), sum, unreachable)
}

// readGr reads a DIMACS .gr file into a new ch.Graph, labels 0-based.
func readGr(path string) *ch.Graph {
	g := ch.NewGraph()
	var n int64 = -1
	harness.EachLine(path, func(f [][]byte) {
		switch string(f[0]) {
		case "p":
			n = harness.Atoi(f[2])
			for v := range n {
				if err := g.CreateVertex(v); err != nil {
					log.Fatal(err)
				}
			}
		case "a":
			u, v := harness.Atoi(f[1])-1, harness.Atoi(f[2])-1
			if u < 0 || v < 0 || u >= n || v >= n {
				log.Fatalf("%s: arc %d -> %d outside 1..%d", path, u+1, v+1, n)
			}
			if err := g.AddEdge(u, v, float64(harness.Atoi(f[3]))); err != nil {
				log.Fatal(err)
			}
		}
	})
	if n < 0 {
		log.Fatalf("%s: no problem line", path)
	}
	return g
}
