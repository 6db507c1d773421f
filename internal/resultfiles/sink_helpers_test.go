package resultfiles

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// treeBlocks cuts trees into blocks of at most per rows, as a backend would
// hand them over: int32 distances (graph.Inf32 for none) when narrow,
// else int64.
func treeBlocks(trees []*paths.Tree, per int, narrow, withParents bool) []*results.Rows {
	return cutBlocks(trees, per, narrow, withParents, false)
}

// cutBlocks is treeBlocks, with ragged blocks (rows as long as their trees,
// Offsets set) when ragged.
func cutBlocks(trees []*paths.Tree, per int, narrow, withParents, ragged bool) []*results.Rows {
	n := len(trees[0].Dist)
	var blocks []*results.Rows
	for lo := 0; lo < len(trees); lo += per {
		hi := min(lo+per, len(trees))
		b := &results.Rows{First: lo, Width: n}
		if ragged {
			b.Width, b.Offsets = 0, []int{0}
		}
		for _, t := range trees[lo:hi] {
			b.Sources = append(b.Sources, t.Source)
			if narrow {
				for _, d := range t.Dist {
					if d == paths.Unreachable {
						b.Dist32 = append(b.Dist32, graph.Inf32)
					} else {
						b.Dist32 = append(b.Dist32, int32(d))
					}
				}
			} else {
				b.Dist64 = append(b.Dist64, t.Dist...)
			}
			if withParents {
				b.Parent = append(b.Parent, t.Parent...)
			}
			if ragged {
				b.Offsets = append(b.Offsets, b.Offsets[len(b.Offsets)-1]+len(t.Dist))
			}
		}
		if narrow && b.Dist32 == nil {
			b.Dist32 = []int32{}
		}
		if !narrow && b.Dist64 == nil {
			b.Dist64 = []int64{}
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// shapeBlocks cuts trees into the blocks a backend answering shape's
// request hands over: rows narrowed to the shape's targets, ragged for
// per-source targets.
func shapeBlocks(trees []*paths.Tree, shape ResultShape, per int, narrow bool) []*results.Rows {
	narrowed := make([]*paths.Tree, len(trees))
	for i, tr := range trees {
		targets := shapeRowTargets(shape, i)
		nt := &paths.Tree{Source: tr.Source, Dist: make([]int64, len(targets))}
		if tr.Parent != nil {
			nt.Parent = make([]int32, len(targets))
		}
		for j, v := range targets {
			nt.Dist[j] = tr.Dist[v]
			if tr.Parent != nil {
				nt.Parent[j] = tr.Parent[v]
			}
		}
		narrowed[i] = nt
	}
	return cutBlocks(narrowed, per, narrow, shape.Wants(results.Parent), shape.SourceTargets != nil)
}

func treeSources(trees []*paths.Tree) []int32 {
	sources := make([]int32, len(trees))
	for i, t := range trees {
		sources[i] = t.Source
	}
	return sources
}

// fitsInt32 reports whether int32 blocks can carry the trees' distances.
func fitsInt32(trees []*paths.Tree) bool {
	for _, tr := range trees {
		for _, d := range tr.Dist {
			if d != paths.Unreachable && (d <= -int64(graph.Inf32) || d >= int64(graph.Inf32)) {
				return false
			}
		}
	}
	return true
}

// narrowTrees shrinks the trees' distances in place so that int32 blocks
// can carry them, keeping their signs and unreachable vertices.
func narrowTrees(trees []*paths.Tree) {
	for _, tr := range trees {
		for v, d := range tr.Dist {
			if d != paths.Unreachable {
				tr.Dist[v] = d >> 12
			}
		}
	}
}

// longShape is the shape of trees written whole in the long layout.
func longShape(trees []*paths.Tree, withParents bool) ResultShape {
	return ResultShape{Shape: results.Shape{Sources: treeSources(trees), MaxDistance: results.NoCutoff, Columns: results.ColumnsOf().With(results.Parent, withParents)}, Width: len(trees[0].Dist)}
}

// putShuffled hands blocks to s from several goroutines in a random order,
// as concurrent producers would, and returns the first error.
func putShuffled(s results.Consumer, blocks []*results.Rows, rng *rand.Rand) error {
	order := rng.Perm(len(blocks))
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	next := make(chan *results.Rows)
	for range 3 {
		wg.Go(func() {
			for b := range next {
				if err := s.Put(b); err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
				}
			}
		})
	}
	for _, i := range order {
		next <- blocks[i]
	}
	close(next)
	wg.Wait()
	return first
}

// writeTrees writes trees through a new sink of shape at dir, in blocks of
// at most per rows (int32 distances when narrow) handed over in a random
// order, and fails the test on error.
func writeTrees(t testing.TB, dir string, shape ResultShape, trees []*paths.Tree, narrow bool, per int, rng *rand.Rand, opts ...tables.Option) *ResultSink {
	t.Helper()
	return writeBlocks(t, dir, shape, shapeBlocks(trees, shape, per, narrow), rng, opts...)
}

// writeBlocks writes blocks through a new sink of shape at dir, handed
// over in a random order, and fails the test on error.
func writeBlocks(t testing.TB, dir string, shape ResultShape, blocks []*results.Rows, rng *rand.Rand, opts ...tables.Option) *ResultSink {
	t.Helper()
	s, err := NewResultSink(dir, shape, tablestest.Meta, nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := putShuffled(s, blocks, rng); err != nil {
		s.Abort()
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return s
}

// summarizeTrees feeds trees, as blocks of per rows in random order from
// several goroutines, to a SummarySink of shape and returns its rows.
func summarizeTrees(t testing.TB, shape ResultShape, trees []*paths.Tree, narrow bool, per int, rng *rand.Rand) []SummaryRow {
	t.Helper()
	s, err := NewSummarySink(shape)
	if err != nil {
		t.Fatal(err)
	}
	if err := putShuffled(s, shapeBlocks(trees, shape, per, narrow), rng); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return s.Rows()
}

// writeSink writes trees as a long-layout table at dir through a
// ResultSink, blocks of random sizes in random order, and fails the test
// on error.
func writeSink(t testing.TB, dir string, trees []*paths.Tree, withParents bool, rng *rand.Rand, opts ...tables.Option) *ResultSink {
	t.Helper()
	narrow := rng.IntN(2) == 0 && fitsInt32(trees)
	return writeTrees(t, dir, longShape(trees, withParents), trees, narrow, 1+rng.IntN(4), rng, opts...)
}

// resultDir is where tests put a result table.
func resultDir(t testing.TB) string { return filepath.Join(t.TempDir(), "result") }

// releases counts how often each block was released.
type releases struct {
	mu sync.Mutex
	n  map[*results.Rows]int
}

// countReleases makes the blocks count their releases.
func countReleases(blocks ...*results.Rows) *releases {
	r := &releases{n: map[*results.Rows]int{}}
	for _, b := range blocks {
		b.OnRelease(func(b *results.Rows) {
			r.mu.Lock()
			r.n[b]++
			r.mu.Unlock()
		})
	}
	return r
}

// check fails the test unless each block was released exactly once.
func (r *releases) check(t *testing.T, blocks ...*results.Rows) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range blocks {
		if n := r.n[b]; n != 1 {
			t.Errorf("block at row %d released %d times, want once", b.First, n)
		}
	}
}

// cell is one row of the long layout; a null distance is paths.Unreachable,
// a null parent paths.NoParent.
type cell struct {
	src, vtx int32
	dist     int64
	par      int32
}

// wantCells computes the long layout of trees under shape cell by cell.
func wantCells(trees []*paths.Tree, shape ResultShape) []cell {
	var cells []cell
	for i, tr := range trees {
		for _, v := range shapeRowTargets(shape, i) {
			d := tr.Dist[v]
			if shape.MaxDistance != results.NoCutoff && (d == paths.Unreachable || d > shape.MaxDistance) {
				continue
			}
			c := cell{src: tr.Source, vtx: v, dist: d, par: paths.NoParent}
			if shape.Wants(results.Parent) {
				c.par = tr.Parent[v]
			}
			cells = append(cells, c)
		}
	}
	return cells
}

// shapeRowTargets returns the targets of source index i under shape.
func shapeRowTargets(shape ResultShape, i int) []int32 {
	if shape.SourceTargets != nil {
		return shape.SourceTargets[i]
	}
	return shapeTargets(shape)
}

// shapeTargets returns the shape's targets, every vertex when nil.
func shapeTargets(shape ResultShape) []int32 {
	if shape.Targets != nil {
		return shape.Targets
	}
	all := make([]int32, shape.Width)
	for v := range all {
		all[v] = int32(v)
	}
	return all
}

// readCells reads a long-layout result with ScanRows.
func readCells(t *testing.T, dir string, opts ...tables.Option) (cells []cell, hasParents bool) {
	t.Helper()
	_, hasParents, err := ScanRows(dir, func(r *ResultRows) error {
		for i := range r.Len() {
			c := cell{src: r.Source[i], vtx: r.Vertex[i], dist: r.Distance[i], par: paths.NoParent}
			if r.Parent != nil {
				c.par = r.Parent[i]
			}
			cells = append(cells, c)
		}
		return nil
	}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return cells, hasParents
}

// wideRow is one row of the wide layout, nulls as in cell; par is nil
// without a parent column.
type wideRow struct {
	src  int32
	dist []int64
	par  []int32
}

// wantWide computes the wide layout of trees under shape.
func wantWide(trees []*paths.Tree, shape ResultShape) []wideRow {
	var rows []wideRow
	for _, tr := range trees {
		r := wideRow{src: tr.Source, dist: []int64{}}
		if shape.Wants(results.Parent) {
			r.par = []int32{}
		}
		for _, v := range shapeTargets(shape) {
			d, p := tr.Dist[v], paths.NoParent
			if shape.MaxDistance != results.NoCutoff && d > shape.MaxDistance {
				d = paths.Unreachable
			}
			if shape.Wants(results.Parent) && d != paths.Unreachable {
				p = tr.Parent[v]
			}
			r.dist = append(r.dist, d)
			if shape.Wants(results.Parent) {
				r.par = append(r.par, p)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// readWide reads the rows of a wide-layout result and checks every part's
// schema against WideResultSchema.
func readWide(t *testing.T, dir string, withParents bool, opts ...tables.Option) []wideRow {
	t.Helper()
	cfg, err := tables.NewConfig(opts)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := ResultParts(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := WideResultSchema(withParents, tablestest.Meta)
	rows := []wideRow{}
	for _, part := range parts {
		tr, err := tables.OpenTable(part, cfg)
		if err != nil {
			t.Fatal(err)
		}
		// Parquet adds field ids to the list elements: compare the layout.
		if tr.Schema().String() != want.String() {
			t.Fatalf("%s: schema\n%s\nwant\n%s", part, tr.Schema(), want)
		}
		err = tr.Scan(func(rec arrow.RecordBatch) error {
			src := rec.Column(0).(*array.Int32)
			dist := rec.Column(1).(*array.List)
			dv := dist.ListValues().(*array.Int64)
			for i := range int(rec.NumRows()) {
				if src.IsNull(i) || dist.IsNull(i) {
					return errors.New("null source or distance list")
				}
				r := wideRow{src: src.Value(i), dist: listValues(dist, dv, dv.Int64Values(), paths.Unreachable, i)}
				if withParents {
					par := rec.Column(2).(*array.List)
					pv := par.ListValues().(*array.Int32)
					if par.IsNull(i) {
						return errors.New("null parent list")
					}
					r.par = listValues(par, pv, pv.Int32Values(), paths.NoParent, i)
				}
				rows = append(rows, r)
			}
			return nil
		})
		tr.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return rows
}

// listValues copies list i of l, whose values are vals, nulls as null.
func listValues[T int32 | int64](l *array.List, values arrow.Array, vals []T, null T, i int) []T {
	lo, hi := l.ValueOffsets(i)
	out := make([]T, 0, hi-lo)
	for k := lo; k < hi; k++ {
		if values.IsNull(int(k)) {
			out = append(out, null)
		} else {
			out = append(out, vals[k])
		}
	}
	return out
}

// rowGroups returns the row counts of the row groups (Parquet) or record
// batches (Arrow IPC) of a table file.
func rowGroups(t *testing.T, path string) []int64 {
	t.Helper()
	format, err := tables.DetectFileFormat(path)
	if err != nil {
		t.Fatal(err)
	}
	groups := []int64{}
	if format == tables.Parquet {
		pf, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		defer pf.Close()
		for i := range pf.NumRowGroups() {
			groups = append(groups, pf.MetaData().RowGroup(i).NumRows())
		}
		return groups
	}
	tr, err := tables.OpenTable(path, defaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for {
		rec, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return groups
		}
		if err != nil {
			t.Fatal(err)
		}
		groups = append(groups, rec.NumRows())
		rec.Release()
	}
}

// wantGroups returns, part by part, the rows of the row groups a sink
// writes for trees under shape: parts of partRows candidate cells and row
// groups of batchRows (the wide layout cuts both by whole sources, at
// least one), empty row groups left out.
func wantGroups(trees []*paths.Tree, shape ResultShape, partRows int64, batchRows int) [][]int64 {
	t := int64(len(shapeTargets(shape)))
	// kept[u] is the rows unit u gives: one per source (wide) or per kept
	// cell (long).
	var kept []int64
	perPart, perGroup := partRows, int64(batchRows)
	if shape.Layout == Wide {
		perPart, perGroup = max(1, partRows/max(t, 1)), max(1, int64(batchRows)/max(t, 1))
		for range trees {
			kept = append(kept, 1)
		}
	} else {
		for i, tr := range trees {
			for _, v := range shapeRowTargets(shape, i) {
				d := tr.Dist[v]
				if shape.MaxDistance != results.NoCutoff && (d == paths.Unreachable || d > shape.MaxDistance) {
					kept = append(kept, 0)
				} else {
					kept = append(kept, 1)
				}
			}
		}
	}
	total := int64(len(kept))
	parts := [][]int64{}
	for lo := int64(0); lo < total || len(parts) == 0; lo += perPart {
		hi := min(lo+perPart, total)
		groups := []int64{}
		for g := lo; g < hi; g += perGroup {
			var n int64
			for _, k := range kept[g:min(g+perGroup, hi)] {
				n += k
			}
			if n > 0 {
				groups = append(groups, n)
			}
		}
		parts = append(parts, groups)
	}
	return parts
}

// checkFiles compares the part files of s with the row groups of want
// (from wantGroups): names, count, rows, checksums and the row groups on
// disk.
func checkFiles(t *testing.T, s *ResultSink, dir string, format tables.Format, want [][]int64) {
	t.Helper()
	files := s.Files()
	if len(files) != len(want) {
		t.Fatalf("%d parts, want %d", len(files), len(want))
	}
	var total int64
	for i, f := range files {
		var rows int64
		for _, n := range want[i] {
			rows += n
		}
		total += rows
		if name := filepath.Join(dir, fmt.Sprintf("part-%05d%s", i, format.Ext())); f.Path != name {
			t.Errorf("part %d is %s, want %s", i, f.Path, name)
		}
		checkInfo(t, f, rows)
		if got := rowGroups(t, f.Path); !slices.Equal(got, want[i]) {
			t.Errorf("part %d has row groups %v, want %v", i, got, want[i])
		}
	}
	if s.Rows() != total {
		t.Errorf("Rows() = %d, want %d", s.Rows(), total)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files) {
		t.Errorf("%s holds %d entries for %d parts", dir, len(entries), len(files))
	}
}

func sameWideRow(a, b wideRow) bool {
	return a.src == b.src && slices.Equal(a.dist, b.dist) && slices.Equal(a.par, b.par) && (a.par == nil) == (b.par == nil)
}

// sparseBlocks cuts trees into blocks of at most per rows as a backend
// answering shape's request with CutoffCells may: each row its cells
// within shape.MaxDistance (Vertices), except rows of every other block,
// which stay whole, as a device that could not fit a block's cells would
// leave them.
func sparseBlocks(trees []*paths.Tree, shape ResultShape, per int, narrow bool) []*results.Rows {
	blocks := cutBlocks(trees, per, narrow, shape.Wants(results.Parent), false)
	for k, b := range blocks {
		if k%2 == 1 {
			continue
		}
		sparse := &results.Rows{First: b.First, Sources: b.Sources, Offsets: []int{0}, Vertices: []int32{}}
		if narrow {
			sparse.Dist32 = []int32{}
		} else {
			sparse.Dist64 = []int64{}
		}
		if shape.Wants(results.Parent) {
			sparse.Parent = []int32{}
		}
		for i := range b.Len() {
			lo, hi := b.Span(i)
			for at := lo; at < hi; at++ {
				if _, kept := b.Distances().Within(at, shape.MaxDistance); !kept {
					continue
				}
				sparse.Vertices = append(sparse.Vertices, int32(at-lo))
				if narrow {
					sparse.Dist32 = append(sparse.Dist32, b.Dist32[at])
				} else {
					sparse.Dist64 = append(sparse.Dist64, b.Dist64[at])
				}
				if shape.Wants(results.Parent) {
					sparse.Parent = append(sparse.Parent, b.Parent[at])
				}
			}
			sparse.Offsets = append(sparse.Offsets, len(sparse.Vertices))
		}
		blocks[k] = sparse
	}
	return blocks
}
