package resultfiles

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

func sameTrees(t *testing.T, got, want []*paths.Tree, withParents bool) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("read %d trees, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Source != w.Source || !slices.Equal(g.Dist, w.Dist) {
			t.Fatalf("tree %d (source %d) differs after a round trip", i, w.Source)
		}
		wantParent := w.Parent
		if !withParents {
			wantParent = nil
		}
		if !slices.Equal(g.Parent, wantParent) || (g.Parent == nil) != (wantParent == nil) {
			t.Fatalf("tree %d parents differ after a round trip", i)
		}
	}
}

func TestResultsRoundTrip(t *testing.T) {
	t.Parallel()
	for _, seed := range tablestest.Seeds(t) {
		rng := tablestest.NewRand(seed)
		n := 1 + rng.IntN(700)
		trees := make([]*paths.Tree, 1+rng.IntN(12))
		for i := range trees {
			// Repeated sources are allowed and must stay separate trees.
			trees[i] = randomTree(rng, n, int32(rng.IntN(min(n, 4))), true, rng.Float64())
		}
		narrow := rng.IntN(2) == 0
		if narrow {
			narrowTrees(trees)
		}
		total := int64(n * len(trees))
		for _, format := range tableFormats {
			for _, withParents := range []bool{true, false} {
				name := fmt.Sprintf("%d/%v/parents=%v", seed, format, withParents)
				t.Run(name, func(t *testing.T) {
					mem := tablestest.CheckedAllocator(t)
					dir := resultDir(t)
					batch := 1 + n/4 + rng.IntN(n+50)
					part := int64(1 + n*len(trees)/8 + rng.IntN(2*n))
					workers := 1 + rng.IntN(4)
					shape := longShape(trees, withParents)
					var (
						mu       sync.Mutex
						maxRows  int64
						maxBytes int64
					)
					s, err := NewResultSink(dir, shape, tablestest.Meta, func(rows, bytes int64) {
						mu.Lock()
						maxRows, maxBytes = max(maxRows, rows), max(maxBytes, bytes)
						mu.Unlock()
					}, tables.WithFormat(format), tables.WithAllocator(mem), tables.WithBatchRows(batch), tables.WithPartRows(part), tables.WithConcurrency(workers))
					if err != nil {
						t.Fatal(err)
					}
					blocks := treeBlocks(trees, 1+rng.IntN(5), narrow, withParents)
					if err := putShuffled(s, blocks, rng); err != nil {
						s.Abort()
						t.Fatal(err)
					}
					if err := s.Close(); err != nil {
						t.Fatal(err)
					}
					t.Logf("%d vertices, %d trees, int32 %v, batch %d, part %d, %d workers, %d blocks",
						n, len(trees), narrow, batch, part, workers, len(blocks))
					checkFiles(t, s, dir, format, wantGroups(trees, shape, part, batch))
					var bytes int64
					for _, f := range s.Files() {
						bytes += f.Bytes
					}
					if maxRows != total || maxBytes != bytes {
						t.Errorf("progress reached %d rows, %d bytes; want %d, %d", maxRows, maxBytes, total, bytes)
					}
					got, err := ReadResults(dir, tables.WithAllocator(mem), tables.WithBatchRows(1+rng.IntN(2*n)))
					if err != nil {
						t.Fatal(err)
					}
					tablestest.SameMeta(t, got.Meta, tablestest.Meta)
					if got.HasParents != withParents {
						t.Errorf("HasParents %v, want %v", got.HasParents, withParents)
					}
					sameTrees(t, got.Trees, trees, withParents)
				})
			}
		}
	}
}

// The null pattern is part of the layout: distance null exactly when
// unreachable, parent null exactly for the source and unreachable vertices.
func TestResultNulls(t *testing.T) {
	t.Parallel()
	tree := &paths.Tree{
		Source: 1,
		Dist:   []int64{5, 0, paths.Unreachable, -3},
		Parent: []int32{3, paths.NoParent, paths.NoParent, 1},
	}
	trees := []*paths.Tree{tree}
	for _, format := range tableFormats {
		for _, narrow := range []bool{false, true} {
			dir := resultDir(t)
			mem := tablestest.CheckedAllocator(t)
			writeTrees(t, dir, longShape(trees, true), trees, narrow, 1, tablestest.NewRand(1), tables.WithFormat(format), tables.WithAllocator(mem))
			parts, err := ResultParts(dir)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := tables.OpenTable(parts[0], tables.Config{Mem: mem, BatchRows: 16, Concurrency: 1})
			if err != nil {
				t.Fatal(err)
			}
			var distNull, parentNull []bool
			err = tr.Scan(func(rec arrow.RecordBatch) error {
				for i := range int(rec.NumRows()) {
					distNull = append(distNull, rec.Column(2).IsNull(i))
					parentNull = append(parentNull, rec.Column(3).IsNull(i))
				}
				return nil
			})
			tr.Close()
			if err != nil {
				t.Fatal(err)
			}
			if want := []bool{false, false, true, false}; !slices.Equal(distNull, want) {
				t.Errorf("%v, int32 %v: distance nulls %v, want %v", format, narrow, distNull, want)
			}
			if want := []bool{false, true, true, false}; !slices.Equal(parentNull, want) {
				t.Errorf("%v, int32 %v: parent nulls %v, want %v", format, narrow, parentNull, want)
			}
		}
	}
}

// The golden schemas are the result layouts, written out by hand from the
// specification: a change here is a change of the output format.
const (
	goldenResultSchema = `schema:
  fields: 4
    - source: type=int32
    - vertex: type=int32
    - distance: type=int64, nullable
          metadata: ["unit": "weight"]
    - parent: type=int32, nullable
  metadata: ["pathflow.input_file": "graph.gr", "pathflow.input_sha256": "0123abcd", "pathflow.z_last": "sorted last"]`

	goldenDistanceSchema = `schema:
  fields: 3
    - source: type=int32
    - vertex: type=int32
    - distance: type=int64, nullable
          metadata: ["unit": "weight"]
  metadata: ["pathflow.input_file": "graph.gr", "pathflow.input_sha256": "0123abcd", "pathflow.z_last": "sorted last"]`

	goldenWideSchema = `schema:
  fields: 3
    - source: type=int32
    - distance: type=list<element: int64, nullable>
          metadata: ["unit": "weight"]
    - parent: type=list<element: int32, nullable>
  metadata: ["pathflow.input_file": "graph.gr", "pathflow.input_sha256": "0123abcd", "pathflow.z_last": "sorted last"]`

	goldenWideDistanceSchema = `schema:
  fields: 2
    - source: type=int32
    - distance: type=list<element: int64, nullable>
          metadata: ["unit": "weight"]
  metadata: ["pathflow.input_file": "graph.gr", "pathflow.input_sha256": "0123abcd", "pathflow.z_last": "sorted last"]`
)

func TestResultSchemaGolden(t *testing.T) {
	t.Parallel()
	golden := map[Layout]map[bool]string{
		Long: {true: goldenResultSchema, false: goldenDistanceSchema},
		Wide: {true: goldenWideSchema, false: goldenWideDistanceSchema},
	}
	tree := randomTree(tablestest.NewRand(1), 3, 0, true, 0.3)
	for _, format := range tableFormats {
		for layout, byParents := range golden {
			for withParents, want := range byParents {
				shape := longShape([]*paths.Tree{tree}, withParents)
				shape.Layout = layout
				dir := resultDir(t)
				s := writeTrees(t, dir, shape, []*paths.Tree{tree}, false, 1, tablestest.NewRand(1), tables.WithFormat(format))
				if got := s.Schema().String(); got != want {
					t.Errorf("%v, parents %v: Schema()\n%s\nwant\n%s", layout, withParents, got, want)
				}
				tr, err := tables.OpenTable(s.Files()[0].Path, defaultConfig())
				if err != nil {
					t.Fatal(err)
				}
				got := tr.Schema().String()
				tr.Close()
				// Arrow's ARROW:schema key, stored by the Parquet writer, is
				// not part of the layout.
				if got != want {
					t.Errorf("%v %v file schema, parents %v\n%s\nwant\n%s", format, layout, withParents, got, want)
				}
			}
		}
	}
	if got := ResultSchema(true, tablestest.Meta).String(); got != goldenResultSchema {
		t.Errorf("ResultSchema\n%s\nwant\n%s", got, goldenResultSchema)
	}
}

// An empty result still has one part holding the schema.
func TestResultSinkEmpty(t *testing.T) {
	t.Parallel()
	const u = paths.Unreachable
	// No distance is 0, the source's own included: cutoff 0 drops them all.
	tree := &paths.Tree{Source: 2, Dist: []int64{4, u, 1, 7, u, 3}, Parent: []int32{2, -1, -1, 0, -1, 0}}
	parents := results.ColumnsOf(results.Parent)
	cases := map[string]ResultShape{
		"long, no sources":  {Shape: results.Shape{MaxDistance: results.NoCutoff, Columns: parents}, Width: 6},
		"wide, no sources":  {Shape: results.Shape{MaxDistance: results.NoCutoff, Columns: parents}, Width: 6, Layout: Wide},
		"long, no targets":  {Shape: results.Shape{Sources: []int32{2, 2, 2}, Targets: []int32{}, MaxDistance: results.NoCutoff, Columns: parents}, Width: 6},
		"long, all cut off": {Shape: results.Shape{Sources: []int32{2, 2, 2}, MaxDistance: 0, Columns: parents}, Width: 6},
	}
	for _, format := range tableFormats {
		for name, shape := range cases {
			mem := tablestest.CheckedAllocator(t)
			dir := resultDir(t)
			s, err := NewResultSink(dir, shape, tablestest.Meta, nil, tables.WithFormat(format), tables.WithAllocator(mem), tables.WithPartRows(2), tables.WithBatchRows(1))
			if err != nil {
				t.Fatal(err)
			}
			trees := []*paths.Tree{tree, tree, tree}[:len(shape.Sources)]
			var blocks []*results.Rows
			if len(trees) > 0 {
				blocks = shapeBlocks(trees, shape, 2, false)
			}
			rel := countReleases(blocks...)
			for _, b := range blocks {
				if err := s.Put(b); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatalf("%v, %s: %v", format, name, err)
			}
			rel.check(t, blocks...)
			want := wantGroups(trees, shape, 2, 1)
			if name == "long, all cut off" {
				// The parts stay where the candidate cells put them.
				if len(want) != 9 {
					t.Fatalf("%d parts expected, want 9", len(want))
				}
			} else if len(want) != 1 {
				t.Fatalf("%d parts expected, want 1", len(want))
			}
			checkFiles(t, s, dir, format, want)
			if shape.Layout == Wide {
				if rows := readWide(t, dir, true, tables.WithAllocator(mem)); len(rows) != 0 {
					t.Errorf("%v, %s: read %d rows", format, name, len(rows))
				}
				continue
			}
			cells, hasParents := readCells(t, dir, tables.WithAllocator(mem))
			if len(cells) != 0 || !hasParents {
				t.Errorf("%v, %s: read %d rows, parents %v; want 0, true", format, name, len(cells), hasParents)
			}
			if len(shape.Sources) == 0 {
				got, err := ReadResults(dir, tables.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Trees) != 0 || !got.HasParents {
					t.Errorf("%v, %s: read %d trees, parents %v; want 0, true", format, name, len(got.Trees), got.HasParents)
				}
				tablestest.SameMeta(t, got.Meta, tablestest.Meta)
			}
		}
	}
}

func TestNewResultSinkRejects(t *testing.T) {
	t.Parallel()
	ok := ResultShape{Shape: results.Shape{Sources: []int32{0, 3}, Targets: []int32{1}, MaxDistance: results.NoCutoff}, Width: 4}
	cases := map[string]struct {
		shape func(s *ResultShape)
		meta  map[string]string
		opts  []tables.Option
	}{
		"no vertices":       {shape: func(s *ResultShape) { s.Width = 0 }},
		"source too large":  {shape: func(s *ResultShape) { s.Sources = []int32{4} }},
		"negative source":   {shape: func(s *ResultShape) { s.Sources = []int32{-1} }},
		"target too large":  {shape: func(s *ResultShape) { s.Targets = []int32{0, 4} }},
		"negative target":   {shape: func(s *ResultShape) { s.Targets = []int32{-1} }},
		"negative cutoff":   {shape: func(s *ResultShape) { s.MaxDistance = -2 }},
		"unknown layout":    {shape: func(s *ResultShape) { s.Layout = 2 }},
		"reserved metadata": {meta: map[string]string{"ARROW:x": "y"}},
		"zero part rows":    {opts: []tables.Option{tables.WithPartRows(0)}},
	}
	for name, c := range cases {
		shape := ok
		if c.shape != nil {
			c.shape(&shape)
		}
		dir := resultDir(t)
		if s, err := NewResultSink(dir, shape, c.meta, nil, c.opts...); err == nil {
			s.Abort()
			t.Errorf("%s: NewResultSink accepted it", name)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the rejected sink left %s behind (%v)", name, dir, err)
		}
	}
	// The sink makes its folder and never writes into an existing one.
	dir := resultDir(t)
	s, err := NewResultSink(dir, ok, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Abort()
	if _, err := NewResultSink(dir, ok, nil, nil); err == nil {
		t.Error("NewResultSink reused an existing folder")
	}
	if _, err := NewResultSink(filepath.Join(t.TempDir(), "missing", "result"), ok, nil, nil); err == nil {
		t.Error("NewResultSink made a missing parent")
	}
}

func TestReadResultsErrors(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(5)
	trees := []*paths.Tree{randomTree(rng, 40, 0, true, 0.1), randomTree(rng, 40, 1, true, 0.1)}
	dir := resultDir(t)
	writeSink(t, dir, trees, true, rng, tables.WithBatchRows(10), tables.WithPartRows(30))
	parts, err := ResultParts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 3 {
		t.Fatalf("%d parts, want 3", len(parts))
	}
	if _, err := ReadResults(t.TempDir()); err == nil {
		t.Error("ReadResults of an empty directory succeeded")
	}

	// A missing middle part breaks the vertex sequence.
	holed := filepath.Join(t.TempDir(), "holed")
	os.Mkdir(holed, 0o755)
	for _, i := range []int{0, 2} {
		os.WriteFile(filepath.Join(holed, filepath.Base(parts[i])), tablestest.FileBytes(t, parts[i]), 0o644)
	}
	if _, err := ReadResults(holed); err == nil || !strings.Contains(err.Error(), "follows") {
		t.Errorf("ReadResults with a missing part: %v, want a sequence error", err)
	}

	// A missing last part leaves a short tree.
	short := filepath.Join(t.TempDir(), "short")
	os.Mkdir(short, 0o755)
	for _, i := range []int{0, 1} {
		os.WriteFile(filepath.Join(short, filepath.Base(parts[i])), tablestest.FileBytes(t, parts[i]), 0o644)
	}
	if _, err := ReadResults(short); err == nil {
		t.Error("ReadResults with a truncated last tree succeeded")
	}

	// A scan stops at the first error of its callback.
	stop := errors.New("stop here")
	calls := 0
	_, _, err = ScanResults(dir, func(*paths.Tree) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("ScanResults returned %v after %d calls, want the callback's error after 1", err, calls)
	}
	calls = 0
	_, _, err = ScanRows(dir, func(*ResultRows) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("ScanRows returned %v after %d calls, want the callback's error after 1", err, calls)
	}

	// Trees cannot be rebuilt from a subset of the targets.
	subset := resultDir(t)
	shape := longShape(trees, true)
	shape.Targets = []int32{0, 2}
	writeTrees(t, subset, shape, trees, false, 1, rng)
	if _, err := ReadResults(subset); err == nil {
		t.Error("ReadResults of a target subset succeeded")
	}
}

func TestResultPartRollover(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(13)
	trees := []*paths.Tree{randomTree(rng, 4, 0, true, 0.3), randomTree(rng, 4, 3, true, 0.3), randomTree(rng, 4, 1, true, 0.3)}
	for _, format := range tableFormats {
		for _, layout := range []Layout{Long, Wide} {
			mem := tablestest.CheckedAllocator(t)
			dir := resultDir(t)
			shape := longShape(trees, true)
			shape.Layout = layout
			// One cell per part: twelve long parts, so name order must not be
			// confused by part-00010 sorting before part-00002; the wide
			// layout still puts a whole source in each.
			s := writeTrees(t, dir, shape, trees, false, 2, rng, tables.WithFormat(format), tables.WithAllocator(mem), tables.WithPartRows(1))
			want := wantGroups(trees, shape, 1, tables.DefaultBatchRows)
			if n := map[Layout]int{Long: 12, Wide: 3}[layout]; len(want) != n {
				t.Fatalf("%d parts expected, want %d", len(want), n)
			}
			checkFiles(t, s, dir, format, want)
			if layout == Wide {
				if got := readWide(t, dir, true, tables.WithAllocator(mem)); !slices.EqualFunc(got, wantWide(trees, shape), sameWideRow) {
					t.Errorf("%v: wide rows differ", format)
				}
				continue
			}
			got, err := ReadResults(dir, tables.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			sameTrees(t, got.Trees, trees, true)
		}
	}
}

func TestResultCompression(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(17)
	// Road-like trees, which every codec shrinks.
	trees := gridTrees(64, 3)
	for _, format := range tableFormats {
		for _, layout := range []Layout{Long, Wide} {
			shape := longShape(trees, true)
			shape.Layout = layout
			size := map[tables.Compression]int64{}
			for _, codec := range []tables.Compression{tables.Zstd, tables.LZ4, tables.Snappy, tables.Uncompressed} {
				mem := tablestest.CheckedAllocator(t)
				dir := resultDir(t)
				opts := []tables.Option{tables.WithFormat(format), tables.WithCompression(codec), tables.WithAllocator(mem)}
				if format == tables.Arrow && codec == tables.Snappy {
					if _, err := NewResultSink(dir, shape, nil, nil, opts...); err == nil {
						t.Error("NewResultSink accepted tables.Snappy for tables.Arrow IPC")
					}
					continue
				}
				s := writeTrees(t, dir, shape, trees, false, 1, rng, opts...)
				size[codec] = s.Files()[0].Bytes
				if layout == Wide {
					if got := readWide(t, dir, true, tables.WithAllocator(mem)); !slices.EqualFunc(got, wantWide(trees, shape), sameWideRow) {
						t.Errorf("%v %v %v: wide rows differ", format, layout, codec)
					}
					continue
				}
				got, err := ReadResults(dir, tables.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				sameTrees(t, got.Trees, trees, true)
			}
			for codec, n := range size {
				if codec != tables.Uncompressed && n >= size[tables.Uncompressed] {
					t.Errorf("%v %v: %v gives %d bytes, uncompressed %d: compression did not apply", format, layout, codec, n, size[tables.Uncompressed])
				}
			}
		}
	}
}
