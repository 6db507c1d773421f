package compute

import (
	"bytes"
	"container/heap"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
)

// This file holds what the compute tests share: an independent reference
// (plain Dijkstra and Bellman-Ford), readers of the output tables that use
// arrow-go directly rather than the package's own readers, and ways to run
// the stage and inspect how it failed.

// refTree is a shortest-path tree computed without the CPU backend: a
// binary-heap Dijkstra for non-negative weights, else Bellman-Ford (the
// graph must have no negative cycle).
func refTree(g *graph.CSR, s int32) *paths.Tree {
	t := paths.NewTree(g.N, s, true)
	t.Dist[s] = 0
	lo, _ := g.WeightRange()
	if lo < 0 {
		for changed, round := true, int32(0); changed && round < g.N; round++ {
			changed = false
			for u := range g.N {
				if t.Dist[u] == paths.Unreachable {
					continue
				}
				for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
					v, d := g.Targets[a], t.Dist[u]+int64(g.Weights[a])
					if d < t.Dist[v] {
						t.Dist[v], t.Parent[v], changed = d, u, true
					}
				}
			}
		}
		return t
	}
	q := &distHeap{{s, 0}}
	for q.Len() > 0 {
		it := heap.Pop(q).(distItem)
		if it.d > t.Dist[it.v] {
			continue
		}
		u := it.v
		for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
			v, d := g.Targets[a], it.d+int64(g.Weights[a])
			if d < t.Dist[v] {
				t.Dist[v], t.Parent[v] = d, u
				heap.Push(q, distItem{v, d})
			}
		}
	}
	return t
}

type distItem struct {
	v int32
	d int64
}

type distHeap []distItem

func (h distHeap) Len() int           { return len(h) }
func (h distHeap) Less(i, j int) bool { return h[i].d < h[j].d }
func (h distHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *distHeap) Push(x any)        { *h = append(*h, x.(distItem)) }
func (h *distHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// refDists returns the reference distances from each source.
func refDists(g *graph.CSR, sources []int32) map[int32][]int64 {
	out := make(map[int32][]int64, len(sources))
	for _, s := range sources {
		out[s] = refTree(g, s).Dist
	}
	return out
}

// checkParent checks one written parent against reference distances: null
// for the source and unreachable vertices, else an arc p -> v whose weight
// closes dist[v] = dist[p] + w.
func checkParent(g *graph.CSR, dist []int64, s, v, p int32) error {
	if v == s || dist[v] == paths.Unreachable {
		if p != paths.NoParent {
			return fmt.Errorf("source %d, vertex %d: parent %d, want null", s, v, p)
		}
		return nil
	}
	if p < 0 || p >= g.N || dist[p] == paths.Unreachable {
		return fmt.Errorf("source %d, vertex %d: parent %d", s, v, p)
	}
	for a := g.Offsets[p]; a < g.Offsets[p+1]; a++ {
		if g.Targets[a] == v && dist[p]+int64(g.Weights[a]) == dist[v] {
			return nil
		}
	}
	return fmt.Errorf("source %d, vertex %d: no arc %d -> %d of weight %d", s, v, p, v, dist[v]-dist[p])
}

// longRow is a row of the long layout; a null distance reads as
// paths.Unreachable and a null parent as paths.NoParent.
type longRow struct {
	Source, Vertex int32
	Dist           int64
	Parent         int32
}

// wideRow is a row of the wide layout, nulls read as for longRow.
type wideRow struct {
	Source int32
	Dist   []int64
	Parent []int32 // nil without a parent column
}

// readParquet reads a whole Parquet file with arrow-go, the way a consumer
// would, and returns the table and its schema metadata.
func readParquet(t *testing.T, path string) (arrow.Table, map[string]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	t.Cleanup(tbl.Release)
	// The table's schema drops the metadata; the file's keeps it.
	schema, err := fr.Schema()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	meta := map[string]string{}
	md := schema.Metadata()
	for i, k := range md.Keys() {
		meta[k] = md.Values()[i]
	}
	return tbl, meta
}

// partFiles lists the Parquet part files of a distances folder in order.
func partFiles(t *testing.T, dir string) []string {
	t.Helper()
	parts, err := filepath.Glob(filepath.Join(dir, "part-*.parquet"))
	if err != nil || len(parts) == 0 {
		t.Fatalf("no part files in %s (%v)", dir, err)
	}
	return parts // five-digit names sort in order
}

// column returns the chunks of the named column.
func column(t *testing.T, tbl arrow.Table, name string) []arrow.Array {
	t.Helper()
	idx := tbl.Schema().FieldIndices(name)
	if len(idx) != 1 {
		return nil
	}
	return tbl.Column(idx[0]).Data().Chunks()
}

// readLong reads every part of a long-layout distances folder and returns
// its rows, its metadata and whether it has a parent column.
func readLong(t *testing.T, dir string) (rows []longRow, meta map[string]string, hasParents bool) {
	t.Helper()
	for _, part := range partFiles(t, dir) {
		tbl, m := readParquet(t, part)
		meta = m
		src, vtx, dist := column(t, tbl, resultfiles.ColSource), column(t, tbl, resultfiles.ColVertex), column(t, tbl, resultfiles.ColDistance)
		par := column(t, tbl, resultfiles.ColParent)
		hasParents = par != nil
		if src == nil || vtx == nil || dist == nil {
			t.Fatalf("%s: schema %s is not the long layout's", part, tbl.Schema())
		}
		for c := range src {
			s, v, d := src[c].(*array.Int32), vtx[c].(*array.Int32), dist[c].(*array.Int64)
			if s.NullN() != 0 || v.NullN() != 0 {
				t.Fatalf("%s: null source or vertex", part)
			}
			for i := range s.Len() {
				r := longRow{Source: s.Value(i), Vertex: v.Value(i), Dist: paths.Unreachable, Parent: paths.NoParent}
				if d.IsValid(i) {
					r.Dist = d.Value(i)
				}
				if par != nil {
					p := par[c].(*array.Int32)
					if p.IsValid(i) {
						if r.Parent = p.Value(i); r.Parent < 0 {
							t.Fatalf("%s: parent %d written as a value, not as null", part, r.Parent)
						}
					}
				}
				rows = append(rows, r)
			}
		}
	}
	return rows, meta, hasParents
}

// readWide reads every part of a wide-layout distances folder.
func readWide(t *testing.T, dir string) (rows []wideRow, meta map[string]string) {
	t.Helper()
	for _, part := range partFiles(t, dir) {
		tbl, m := readParquet(t, part)
		meta = m
		src, dist, par := column(t, tbl, resultfiles.ColSource), column(t, tbl, resultfiles.ColDistance), column(t, tbl, resultfiles.ColParent)
		if src == nil || dist == nil {
			t.Fatalf("%s: schema %s is not the wide layout's", part, tbl.Schema())
		}
		for c := range src {
			s := src[c].(*array.Int32)
			dl := dist[c].(*array.List)
			dv := dl.ListValues().(*array.Int64)
			for i := range s.Len() {
				if dl.IsNull(i) {
					t.Fatalf("%s: null distance list for source %d", part, s.Value(i))
				}
				r := wideRow{Source: s.Value(i)}
				lo, hi := dl.ValueOffsets(i)
				for k := lo; k < hi; k++ {
					d := paths.Unreachable
					if dv.IsValid(int(k)) {
						d = dv.Value(int(k))
					}
					r.Dist = append(r.Dist, d)
				}
				if par != nil {
					pl := par[c].(*array.List)
					pv := pl.ListValues().(*array.Int32)
					lo, hi := pl.ValueOffsets(i)
					r.Parent = []int32{}
					for k := lo; k < hi; k++ {
						p := paths.NoParent
						if pv.IsValid(int(k)) {
							if p = pv.Value(int(k)); p < 0 {
								t.Fatalf("%s: parent %d written as a value, not as null", part, p)
							}
						}
						r.Parent = append(r.Parent, p)
					}
				}
				rows = append(rows, r)
			}
		}
	}
	return rows, meta
}

// expectLong is what a long table holds for the reference distances:
// sources in order, targets in order (nil: every vertex), only cells within
// cutoff unless it is results.NoCutoff. Parents are left NoParent.
func expectLong(ref map[int32][]int64, sources, targets []int32, n int32, cutoff int64) []longRow {
	if targets == nil {
		targets = seq(n)
	}
	var out []longRow
	for _, s := range sources {
		for _, v := range targets {
			d := ref[s][v]
			if cutoff != results.NoCutoff && (d == paths.Unreachable || d > cutoff) {
				continue
			}
			out = append(out, longRow{Source: s, Vertex: v, Dist: d, Parent: paths.NoParent})
		}
	}
	return out
}

// compareLong checks rows against want (distances and order) and every
// parent against the graph.
func compareLong(t *testing.T, g *graph.CSR, ref map[int32][]int64, got, want []longRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		r := got[i]
		if r.Source != want[i].Source || r.Vertex != want[i].Vertex || r.Dist != want[i].Dist {
			t.Fatalf("row %d is (%d, %d, %s), want (%d, %d, %s)", i, r.Source, r.Vertex, distText(r.Dist),
				want[i].Source, want[i].Vertex, distText(want[i].Dist))
		}
		if err := checkParent(g, ref[r.Source], r.Source, r.Vertex, r.Parent); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
	}
}

// compareDists checks rows written without parents against want: the
// same cells in the same order with the same distances.
func compareDists(t *testing.T, rows, want []longRow) {
	t.Helper()
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, r := range rows {
		if w := want[i]; r.Source != w.Source || r.Vertex != w.Vertex || r.Dist != w.Dist {
			t.Fatalf("row %d is (%d, %d, %s), want (%d, %d, %s)", i, r.Source, r.Vertex, distText(r.Dist), w.Source, w.Vertex, distText(w.Dist))
		}
	}
}

func distText(d int64) string {
	if d == paths.Unreachable {
		return "null"
	}
	return fmt.Sprint(d)
}

// configThenCompute loads a compute config from flags and runs it,
// returning the first error, of the configuration or of the run.
func configThenCompute(t *testing.T, args ...string) (*Result, error) {
	t.Helper()
	l, err := config.Load("compute", Keys(), args, io.Discard)
	if err != nil {
		return nil, err
	}
	cfg, err := ConfigFrom(l)
	if err != nil {
		return nil, err
	}
	return Run(context.Background(), cfg, stagetest.QuietLog, io.Discard)
}

// registerFake registers f in place of whatever is registered under its
// name until the test ends. Tests that call it must not run in parallel:
// the registry is global.
func registerFake(t *testing.T, f backend.Factory) {
	t.Helper()
	prev, had := backend.Lookup(f.Name)
	backend.Unregister(f.Name)
	backend.Register(f)
	t.Cleanup(func() {
		backend.Unregister(f.Name)
		if had {
			backend.Register(prev)
		}
	})
}

// writeGR writes e as a DIMACS .gr file.
func writeGR(t *testing.T, name string, e *graph.EdgeList) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "p sp %d %d\n", e.N, e.M())
	for i := range e.M() {
		fmt.Fprintf(&b, "a %d %d %d\n", e.Src[i]+1, e.Dst[i]+1, e.Weight[i])
	}
	return stagetest.WriteFile(t, name, b.String())
}

// mirrorFile returns a shared dataset's path or skips the test.
func mirrorFile(t *testing.T, name string) string {
	t.Helper()
	path, ok := datasets.MirrorFile(name)
	if !ok {
		t.Skipf("%s not in %s (set %s)", name, datasets.MirrorDir(), datasets.MirrorEnv)
	}
	return path
}

// loadInput loads a graph file as compute would.
func loadInput(t *testing.T, spec input.Spec) *graph.EdgeList {
	t.Helper()
	g, err := input.LoadGraph(context.Background(), spec, stagetest.QuietLog, io.Discard, true)
	if err != nil {
		t.Fatal(err)
	}
	return g.Edges
}

// sameFloat compares closeness values, NaN equal to NaN.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
}

// loadIngest reads an ingest configuration from command-line args.
func loadIngest(t testing.TB, args ...string) *ingest.Config {
	t.Helper()
	return stagetest.Load(t, "ingest", ingest.Keys(), ingest.ConfigFrom, args...)
}

// flipMiddleBit flips one bit in the middle of the file at path, keeping
// its size, and returns the bytes it held before.
func flipMiddleBit(t testing.TB, path string) []byte {
	t.Helper()
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damaged := bytes.Clone(good)
	damaged[len(damaged)/2] ^= 0x01
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	return good
}
