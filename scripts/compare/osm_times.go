//go:build ignore

// Command osm_times compares the travel times and lengths of pathflow's
// road network, ingested from an OpenStreetMap extract, with those of
// RoutingKit's car graph of the same extract
// (scripts/compare/routingkit/osm_graph.cpp):
//
//	go run scripts/compare/osm_times.go -pathflow OUTDIR -routingkit DE.rkgraph -pairs 5000 -seed 1
//
// OUTDIR is the output of `ingest` (vertices.parquet: id, lat, lon;
// edges.parquet: src, dst, time_ms, length_m, one row per directed arc),
// read here with arrow-go directly. The two graphs number their vertices
// differently, so vertices are matched by coordinates: RoutingKit keeps
// latitude and longitude as float32, whose spacing in the Delaware box is
// 3.8e-6 degree for latitude and 7.6e-6 for longitude, so rounding moves a
// vertex by up to 1.9e-6 and 3.8e-6 degree. A RoutingKit vertex matches
// the pathflow vertex nearest to it (largest of the latitude and longitude
// differences) if that is within -tolerance (default 1e-5 degree, about a
// metre) and no other pathflow vertex is; a pathflow vertex claimed twice
// is dropped.
//
// Pairs: -pairs/-sources random targets from each of -sources random
// sources, all among matched vertices, drawn by splitmix64 from -seed
// (sources first, then each source's targets, index = draw mod count; a
// target equal to its source is drawn again). One Dijkstra per source and
// graph, by travel time, gives each target's time and the length of the
// path that time was found on. Printed: how many pairs RoutingKit reaches,
// how many of those pathflow reaches, the 5th, 50th and 95th percentiles
// of pathflow's time over RoutingKit's and of pathflow's length over
// RoutingKit's (pairs RoutingKit puts at time 0 left out), and the pairs
// that differ most, with their coordinates, to look at on a map.
package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/pathflow/pathflow/scripts/compare/harness"
)

// roadGraph is a directed graph in compressed rows with what both tools
// give every arc: travel time in milliseconds and length in metres.
type roadGraph struct {
	lat, lon []float64
	first    []int32 // the arcs of v are first[v] .. first[v+1]-1
	head     []int32
	timeMS   []int64
	lengthM  []int64
}

func (g *roadGraph) n() int { return len(g.lat) }

func main() {
	pfDir := flag.String("pathflow", "", "ingest output folder (vertices.parquet, edges.parquet)")
	rkPath := flag.String("routingkit", "", "RoutingKit graph written by osm_graph (PREFIX.rkgraph)")
	pairs := flag.Int("pairs", 5000, "source-target pairs")
	sources := flag.Int("sources", 100, "distinct sources the pairs are spread over")
	seed := flag.Uint64("seed", 1, "splitmix64 seed of the pairs")
	tolerance := flag.Float64("tolerance", 1e-5, "largest coordinate difference, in degrees, of matched vertices")
	worst := flag.Int("worst", 5, "pairs differing most to print")
	flag.Parse()
	if *pfDir == "" || *rkPath == "" {
		log.Fatal("osm_times: -pathflow and -routingkit are required")
	}
	if *sources < 1 || *pairs < *sources {
		log.Fatal("osm_times: need 1 <= -sources <= -pairs")
	}

	rk := readRoutingKit(*rkPath)
	pf := readPathflow(*pfDir)
	fmt.Printf("routingkit n=%d m=%d\npathflow n=%d m=%d\n", rk.n(), len(rk.head), pf.n(), len(pf.head))

	rkToPF, ambiguous := match(rk, pf, *tolerance)
	var matched []int32
	for v, w := range rkToPF {
		if w >= 0 {
			matched = append(matched, int32(v))
		}
	}
	fmt.Printf("matched=%d (%.1f%% of routingkit, %.1f%% of pathflow) ambiguous=%d tolerance_deg=%g\n",
		len(matched), pct(len(matched), rk.n()), pct(len(matched), pf.n()), ambiguous, *tolerance)
	if len(matched) < 2 {
		log.Fatal("osm_times: fewer than two vertices match")
	}

	results := comparePairs(rk, pf, rkToPF, matched, *pairs, *sources, *seed)
	report(results, rk, *worst)
}

// pairResult is one source-target pair: times and lengths on each graph,
// -1 where that graph does not reach the target.
type pairResult struct {
	source, target int32 // RoutingKit's ids
	rkTime, rkLen  int64
	pfTime, pfLen  int64
}

func comparePairs(rk, pf *roadGraph, rkToPF, matched []int32, pairs, sources int, seed uint64) []pairResult {
	rng := harness.SplitMix64(seed)
	draw := func() int32 { return matched[rng.Next()%uint64(len(matched))] }
	srcs := make([]int32, sources)
	for i := range srcs {
		srcs[i] = draw()
	}
	rkSearch, pfSearch := newSearch(rk.n()), newSearch(pf.n())
	var out []pairResult
	for i, s := range srcs {
		count := pairs / sources
		if i < pairs%sources {
			count++
		}
		rkSearch.run(rk, s)
		pfSearch.run(pf, rkToPF[s])
		for range count {
			t := draw()
			for t == s {
				t = draw()
			}
			out = append(out, pairResult{
				source: s, target: t,
				rkTime: rkSearch.time[t], rkLen: rkSearch.length[t],
				pfTime: pfSearch.time[rkToPF[t]], pfLen: pfSearch.length[rkToPF[t]],
			})
		}
	}
	return out
}

func report(results []pairResult, rk *roadGraph, worst int) {
	var rkReached, both, pfOnly, zero int
	var timeRatio, lengthRatio []float64
	var differing []pairResult
	for _, r := range results {
		switch {
		case r.rkTime >= 0 && r.pfTime >= 0:
			rkReached++
			both++
			if r.rkTime == 0 || r.rkLen == 0 {
				zero++
				continue
			}
			timeRatio = append(timeRatio, float64(r.pfTime)/float64(r.rkTime))
			lengthRatio = append(lengthRatio, float64(r.pfLen)/float64(r.rkLen))
			differing = append(differing, r)
		case r.rkTime >= 0:
			rkReached++
		case r.pfTime >= 0:
			pfOnly++
		}
	}
	fmt.Printf("pairs=%d routingkit_reaches=%d pathflow_reaches_of_those=%d (%.2f%%) pathflow_only=%d zero_time=%d\n",
		len(results), rkReached, both, pct(both, rkReached), pfOnly, zero)
	if len(timeRatio) == 0 {
		fmt.Println("no pair reached by both")
		return
	}
	p := func(name string, v []float64) {
		s := append([]float64(nil), v...)
		sort.Float64s(s)
		fmt.Printf("%s_ratio pathflow/routingkit over %d pairs: p5=%.3f median=%.3f p95=%.3f mean=%.3f\n",
			name, len(s), quantile(s, 0.05), quantile(s, 0.5), quantile(s, 0.95), mean(s))
	}
	p("time", timeRatio)
	p("length", lengthRatio)

	sort.Slice(differing, func(i, j int) bool {
		return math.Abs(logRatio(differing[i])) > math.Abs(logRatio(differing[j]))
	})
	for _, r := range differing[:min(worst, len(differing))] {
		if r.pfTime == r.rkTime && r.pfLen == r.rkLen {
			break
		}
		fmt.Printf("differs: (%.6f,%.6f) -> (%.6f,%.6f) routingkit %.1f s %d m, pathflow %.1f s %d m\n",
			rk.lat[r.source], rk.lon[r.source], rk.lat[r.target], rk.lon[r.target],
			float64(r.rkTime)/1000, r.rkLen, float64(r.pfTime)/1000, r.pfLen)
	}
}

func logRatio(r pairResult) float64 { return math.Log(float64(r.pfTime) / float64(r.rkTime)) }

// quantile is the q-quantile of sorted s, the nearest rank.
func quantile(s []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func mean(s []float64) float64 {
	var sum float64
	for _, x := range s {
		sum += x
	}
	return sum / float64(len(s))
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// match gives each RoutingKit vertex its pathflow vertex, or -1: the
// nearest within tol if it is the only one within tol and no other
// RoutingKit vertex picks it. Pathflow's vertices are bucketed into square
// cells of side tol, so a RoutingKit vertex looks at the 3 x 3 cells
// around its own. ambiguous counts the RoutingKit vertices dropped because
// two candidates were within tol or their candidate was picked twice.
func match(rk, pf *roadGraph, tol float64) (rkToPF []int32, ambiguous int) {
	type cell struct{ y, x int64 }
	at := func(lat, lon float64) cell {
		return cell{int64(math.Floor(lat / tol)), int64(math.Floor(lon / tol))}
	}
	cells := make(map[cell][]int32, pf.n())
	for v := range pf.n() {
		c := at(pf.lat[v], pf.lon[v])
		cells[c] = append(cells[c], int32(v))
	}
	rkToPF = make([]int32, rk.n())
	claims := make([]int32, pf.n())
	for v := range rk.n() {
		rkToPF[v] = -1
		c := at(rk.lat[v], rk.lon[v])
		best, within := int32(-1), 0
		bestD := math.Inf(1)
		for dy := int64(-1); dy <= 1; dy++ {
			for dx := int64(-1); dx <= 1; dx++ {
				for _, w := range cells[cell{c.y + dy, c.x + dx}] {
					d := max(math.Abs(pf.lat[w]-rk.lat[v]), math.Abs(pf.lon[w]-rk.lon[v]))
					if d > tol {
						continue
					}
					within++
					if d < bestD {
						best, bestD = w, d
					}
				}
			}
		}
		switch {
		case within == 1:
			rkToPF[v] = best
			claims[best]++
		case within > 1:
			ambiguous++
		}
	}
	for v, w := range rkToPF {
		if w >= 0 && claims[w] > 1 {
			rkToPF[v] = -1
			ambiguous++
		}
	}
	return rkToPF, ambiguous
}

// search is one graph's reusable Dijkstra state: a binary heap with lazy
// deletion over (time, vertex), the times and the length of the path each
// time was found on, -1 where not reached.
type search struct {
	time, length []int64
	heap         []heapItem
}

type heapItem struct {
	time int64
	v    int32
}

func newSearch(n int) *search {
	return &search{time: make([]int64, n), length: make([]int64, n)}
}

// run settles every vertex reachable from s in O((n + m) log m).
func (s *search) run(g *roadGraph, source int32) {
	for i := range s.time {
		s.time[i], s.length[i] = -1, -1
	}
	s.time[source], s.length[source] = 0, 0
	s.heap = append(s.heap[:0], heapItem{0, source})
	for len(s.heap) > 0 {
		top := s.pop()
		u := top.v
		if top.time != s.time[u] {
			continue // a stale entry: u was reached faster since
		}
		for a := g.first[u]; a < g.first[u+1]; a++ {
			v, t := g.head[a], top.time+g.timeMS[a]
			if s.time[v] < 0 || t < s.time[v] {
				s.time[v], s.length[v] = t, s.length[u]+g.lengthM[a]
				s.push(heapItem{t, v})
			}
		}
	}
}

func (s *search) push(it heapItem) {
	h := append(s.heap, it)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if h[p].time <= h[i].time {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
	s.heap = h
}

func (s *search) pop() heapItem {
	h := s.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l, small := 2*i+1, i
		if l < len(h) && h[l].time < h[small].time {
			small = l
		}
		if l+1 < len(h) && h[l+1].time < h[small].time {
			small = l + 1
		}
		if small == i {
			break
		}
		h[i], h[small] = h[small], h[i]
		i = small
	}
	s.heap = h
	return top
}

// readRoutingKit reads the .rkgraph layout documented in
// scripts/compare/routingkit/osm_graph.cpp.
func readRoutingKit(path string) *roadGraph {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	r := bytes.NewReader(data)
	var magic [8]byte
	var counts [2]uint32
	if _, err := io.ReadFull(r, magic[:]); err != nil || string(magic[:]) != "RKOSMGR1" {
		log.Fatalf("%s: not a RoutingKit graph from osm_graph", path)
	}
	if err := binary.Read(r, binary.LittleEndian, &counts); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	n, m := int(counts[0]), int(counts[1])
	if want := 16 + 4*(2*n+(n+1)+3*m); len(data) != want {
		log.Fatalf("%s: %d bytes, want %d for n=%d m=%d", path, len(data), want, n, m)
	}
	lat, lon := make([]float32, n), make([]float32, n)
	first := make([]uint32, n+1)
	head, timeMS, lengthM := make([]uint32, m), make([]uint32, m), make([]uint32, m)
	for _, a := range []any{lat, lon, first, head, timeMS, lengthM} {
		if err := binary.Read(r, binary.LittleEndian, a); err != nil {
			log.Fatalf("%s: %v", path, err)
		}
	}
	g := &roadGraph{lat: widen[float64](lat), lon: widen[float64](lon),
		first: widen[int32](first), head: widen[int32](head),
		timeMS: widen[int64](timeMS), lengthM: widen[int64](lengthM)}
	checkRows(g, path)
	return g
}

func widen[To, From int32 | int64 | uint32 | float32 | float64](s []From) []To {
	out := make([]To, len(s))
	for i, x := range s {
		out[i] = To(x)
	}
	return out
}

// checkRows fails on rows that do not partition the arcs or heads outside
// the vertices, so that a damaged file stops here rather than in a search.
func checkRows(g *roadGraph, path string) {
	n := g.n()
	if len(g.first) != n+1 || g.first[0] != 0 || int(g.first[n]) != len(g.head) {
		log.Fatalf("%s: arc rows do not cover the %d arcs", path, len(g.head))
	}
	for v := range n {
		if g.first[v] > g.first[v+1] {
			log.Fatalf("%s: rows of vertex %d decrease", path, v)
		}
	}
	for a, h := range g.head {
		if h < 0 || int(h) >= n {
			log.Fatalf("%s: arc %d enters %d, outside 0..%d", path, a, h, n-1)
		}
		if g.timeMS[a] < 0 || g.lengthM[a] < 0 {
			log.Fatalf("%s: arc %d has a negative time or length", path, a)
		}
	}
}

// readPathflow reads an ingest output: vertex ids must be 0..n-1 (in any
// row order), and every edge row is one directed arc.
func readPathflow(dir string) *roadGraph {
	vs := readColumns(filepath.Join(dir, "vertices.parquet"), "id", "lat", "lon")
	id := ints(vs["id"])
	n := len(id)
	g := &roadGraph{lat: make([]float64, n), lon: make([]float64, n)}
	seen := make([]bool, n)
	lat, lon := floats(vs["lat"]), floats(vs["lon"])
	for i, v := range id {
		if v < 0 || int(v) >= n || seen[v] {
			log.Fatalf("%s: vertex ids are not 0..%d", dir, n-1)
		}
		seen[v] = true
		g.lat[v], g.lon[v] = lat[i], lon[i]
	}

	es := readColumns(filepath.Join(dir, "edges.parquet"), "src", "dst", "time_ms", "length_m")
	src, dst, tm, ln := ints(es["src"]), ints(es["dst"]), ints(es["time_ms"]), ints(es["length_m"])
	m := len(src)
	g.first = make([]int32, n+1)
	for _, u := range src {
		if u < 0 || int(u) >= n {
			log.Fatalf("%s: edge from %d, outside 0..%d", dir, u, n-1)
		}
		g.first[u+1]++
	}
	for v := range n {
		g.first[v+1] += g.first[v]
	}
	g.head, g.timeMS, g.lengthM = make([]int32, m), make([]int64, m), make([]int64, m)
	next := append([]int32(nil), g.first[:n]...)
	for i, u := range src {
		a := next[u]
		next[u]++
		g.head[a], g.timeMS[a], g.lengthM[a] = int32(dst[i]), tm[i], ln[i]
	}
	checkRows(g, dir)
	return g
}

// readColumns reads the named columns of a Parquet file whole.
func readColumns(path string, names ...string) map[string]*arrow.Chunked {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	tbl, err := pqarrow.ReadTable(context.Background(), f, nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	cols := make(map[string]*arrow.Chunked, len(names))
	for _, name := range names {
		idx := tbl.Schema().FieldIndices(name)
		if len(idx) != 1 {
			log.Fatalf("%s: no column %q (has %v)", path, name, tbl.Schema())
		}
		cols[name] = tbl.Column(idx[0]).Data()
	}
	return cols
}

// ints is an integer column widened to int64; a null is fatal.
func ints(c *arrow.Chunked) []int64 {
	out := make([]int64, 0, c.Len())
	for _, ch := range c.Chunks() {
		if ch.NullN() > 0 {
			log.Fatalf("column of %s has nulls", ch.DataType())
		}
		switch a := ch.(type) {
		case *array.Int32:
			for _, x := range a.Int32Values() {
				out = append(out, int64(x))
			}
		case *array.Int64:
			out = append(out, a.Int64Values()...)
		case *array.Uint32:
			for _, x := range a.Uint32Values() {
				out = append(out, int64(x))
			}
		default:
			log.Fatalf("column of %s, want an integer", ch.DataType())
		}
	}
	return out
}

// floats is a floating-point column as float64; a null is fatal.
func floats(c *arrow.Chunked) []float64 {
	out := make([]float64, 0, c.Len())
	for _, ch := range c.Chunks() {
		if ch.NullN() > 0 {
			log.Fatalf("column of %s has nulls", ch.DataType())
		}
		switch a := ch.(type) {
		case *array.Float64:
			out = append(out, a.Float64Values()...)
		case *array.Float32:
			for _, x := range a.Float32Values() {
				out = append(out, float64(x))
			}
		default:
			log.Fatalf("column of %s, want a float", ch.DataType())
		}
	}
	return out
}
