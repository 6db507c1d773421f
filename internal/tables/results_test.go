package tables

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/internal/paths"
)

// writeResults writes trees to dir and fails the test on error.
func writeResults(t *testing.T, dir string, trees []*paths.Tree, withParents bool, opts ...Option) *ResultWriter {
	t.Helper()
	w, err := NewResultWriter(dir, withParents, testMeta, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for _, tr := range trees {
		if err := w.WriteTree(tr); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w
}

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
	for _, seed := range seeds(t) {
		rng := newRand(seed)
		n := 1 + rng.IntN(700)
		trees := make([]*paths.Tree, 1+rng.IntN(12))
		for i := range trees {
			// Repeated sources are allowed and must stay separate trees.
			trees[i] = randomTree(rng, n, int32(rng.IntN(min(n, 4))), true, rng.Float64())
		}
		total := int64(n * len(trees))
		for _, format := range formats {
			for _, withParents := range []bool{true, false} {
				name := format.String() + map[bool]string{true: "/parents", false: "/distances"}[withParents]
				t.Run(name, func(t *testing.T) {
					mem := checkedAllocator(t)
					dir := filepath.Join(t.TempDir(), "result")
					batch := 1 + n/4 + rng.IntN(n+50)
					part := int64(batch * (1 + rng.IntN(3)))
					w := writeResults(t, dir, trees, withParents,
						WithFormat(format), WithAllocator(mem), WithBatchRows(batch), WithPartRows(part))
					if w.Rows() != total {
						t.Errorf("Rows() = %d, want %d", w.Rows(), total)
					}
					files := w.Files()
					wantParts := int((total + part - 1) / part)
					if len(files) != wantParts {
						t.Errorf("%d parts, want %d (rows %d, part rows %d)", len(files), wantParts, total, part)
					}
					for i, f := range files {
						want := min(part, total-int64(i)*part)
						checkInfo(t, f, want)
						if wantName := filepath.Join(dir, fmt.Sprintf("part-%05d%s", i, format.Ext())); f.Path != wantName {
							t.Errorf("part %d is %s, want %s", i, f.Path, wantName)
						}
					}
					got, err := ReadResults(dir, WithAllocator(mem), WithBatchRows(1+rng.IntN(2*n)))
					if err != nil {
						t.Fatal(err)
					}
					sameMeta(t, got.Meta, testMeta)
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
	for _, format := range formats {
		dir := filepath.Join(t.TempDir(), "result")
		mem := checkedAllocator(t)
		writeResults(t, dir, []*paths.Tree{tree}, true, WithFormat(format), WithAllocator(mem))
		parts, err := ResultParts(dir)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := openTable(parts[0], config{mem: mem, batchRows: 16, concurrency: 1})
		if err != nil {
			t.Fatal(err)
		}
		var distNull, parentNull []bool
		err = tr.scan(func(rec arrow.RecordBatch) error {
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
			t.Errorf("%v: distance nulls %v, want %v", format, distNull, want)
		}
		if want := []bool{false, true, true, false}; !slices.Equal(parentNull, want) {
			t.Errorf("%v: parent nulls %v, want %v", format, parentNull, want)
		}
	}
}

// goldenResultSchema is the result layout, written out by hand from the
// specification: a change here is a change of the output format.
const goldenResultSchema = `schema:
  fields: 4
    - source: type=int32
    - vertex: type=int32
    - distance: type=int64, nullable
    - parent: type=int32, nullable
  metadata: ["pathflow.input_file": "graph.gr", "pathflow.input_sha256": "0123abcd", "pathflow.z_last": "sorted last"]`

const goldenDistanceSchema = `schema:
  fields: 3
    - source: type=int32
    - vertex: type=int32
    - distance: type=int64, nullable
  metadata: ["pathflow.input_file": "graph.gr", "pathflow.input_sha256": "0123abcd", "pathflow.z_last": "sorted last"]`

func TestResultSchemaGolden(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		for withParents, golden := range map[bool]string{true: goldenResultSchema, false: goldenDistanceSchema} {
			if got := ResultSchema(withParents, testMeta).String(); got != golden {
				t.Errorf("ResultSchema(%v)\n%s\nwant\n%s", withParents, got, golden)
			}
			dir := filepath.Join(t.TempDir(), "result")
			writeResults(t, dir, []*paths.Tree{paths.NewTree(3, 0, withParents)}, withParents, WithFormat(format))
			parts, _ := ResultParts(dir)
			tr, err := openTable(parts[0], defaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			got := tr.schema.String()
			tr.Close()
			// Arrow's ARROW:schema key, stored by the Parquet writer, is
			// not part of the layout.
			if got != golden {
				t.Errorf("%v file schema\n%s\nwant\n%s", format, got, golden)
			}
		}
	}
}

func TestResultsByteIdentical(t *testing.T) {
	t.Parallel()
	rng := newRand(3)
	var trees []*paths.Tree
	for s := range 5 {
		trees = append(trees, randomTree(rng, 1000, int32(s), true, 0.2))
	}
	for _, format := range formats {
		a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
		wa := writeResults(t, a, trees, true, WithFormat(format), WithBatchRows(700), WithPartRows(2100))
		wb := writeResults(t, b, trees, true, WithFormat(format), WithBatchRows(700), WithPartRows(2100), WithConcurrency(1))
		fa, fb := wa.Files(), wb.Files()
		if len(fa) != 3 || len(fb) != 3 {
			t.Fatalf("%v: %d and %d parts, want 3", format, len(fa), len(fb))
		}
		for i := range fa {
			sameBytes(t, fa[i].Path, fb[i].Path)
			if fa[i].SHA256 != fb[i].SHA256 {
				t.Errorf("%v part %d: checksums differ", format, i)
			}
		}
	}
}

func TestResultWriterEmpty(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		mem := checkedAllocator(t)
		dir := filepath.Join(t.TempDir(), "result")
		w := writeResults(t, dir, nil, true, WithFormat(format), WithAllocator(mem))
		if files := w.Files(); len(files) != 1 {
			t.Fatalf("%v: %d parts for no trees, want 1 empty part", format, len(files))
		} else {
			checkInfo(t, files[0], 0)
		}
		got, err := ReadResults(dir, WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Trees) != 0 || !got.HasParents {
			t.Errorf("%v: read %d trees, parents %v; want 0, true", format, len(got.Trees), got.HasParents)
		}
		sameMeta(t, got.Meta, testMeta)
	}
}

func TestResultWriterRejectsBadTrees(t *testing.T) {
	t.Parallel()
	mem := checkedAllocator(t)
	dir := filepath.Join(t.TempDir(), "result")
	w, err := NewResultWriter(dir, true, nil, WithAllocator(mem), WithBatchRows(3))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	good := paths.NewTree(4, 2, true)
	good.Dist[0], good.Parent[0] = 7, 2
	bad := map[string]*paths.Tree{
		"no vertices":      {Source: 0},
		"source too large": {Source: 4, Dist: make([]int64, 4), Parent: make([]int32, 4)},
		"no parents":       paths.NewTree(4, 0, false),
		"short parents":    {Source: 0, Dist: make([]int64, 4), Parent: make([]int32, 3)},
		"parent too large": {Source: 0, Dist: make([]int64, 4), Parent: []int32{-1, 4, 0, 0}},
		"parent negative":  {Source: 0, Dist: make([]int64, 4), Parent: []int32{-1, -2, 0, 0}},
		"other size":       paths.NewTree(5, 0, true),
	}
	if err := w.WriteTree(good); err != nil {
		t.Fatal(err)
	}
	for name, tree := range bad {
		if err := w.WriteTree(tree); err == nil {
			t.Errorf("%s: WriteTree accepted the tree", name)
		}
	}
	if err := w.WriteTree(good); err != nil {
		t.Fatalf("WriteTree after rejected trees: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadResults(dir, WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	sameTrees(t, got.Trees, []*paths.Tree{good, good}, true)
	if err := w.WriteTree(good); err == nil {
		t.Error("WriteTree after Close succeeded")
	}
}

func TestResultWriterAtomic(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		parent := t.TempDir()
		dir := filepath.Join(parent, "result")
		rng := newRand(11)
		old := []*paths.Tree{randomTree(rng, 50, 0, true, 0.1)}
		writeResults(t, dir, old, true, WithFormat(format))

		// An aborted run leaves the old output as it was, and no temporary.
		mem := checkedAllocator(t)
		w, err := NewResultWriter(dir, true, nil, WithFormat(format), WithAllocator(mem), WithBatchRows(10), WithPartRows(20))
		if err != nil {
			t.Fatal(err)
		}
		for s := range 5 {
			if err := w.WriteTree(randomTree(rng, 50, int32(s), true, 0.1)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Abort(); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err == nil {
			t.Error("Close after Abort succeeded")
		}
		got, err := ReadResults(dir)
		if err != nil {
			t.Fatal(err)
		}
		sameTrees(t, got.Trees, old, true)
		if entries, _ := os.ReadDir(parent); len(entries) != 1 {
			t.Errorf("%v: parent holds %d entries after Abort, want 1", format, len(entries))
		}

		// A committed run replaces it, stale parts included; until Close
		// the old output stays readable.
		fresh := []*paths.Tree{randomTree(rng, 30, 1, false, 0.5)}
		w, err = NewResultWriter(dir, false, nil, WithFormat(format))
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteTree(fresh[0]); err != nil {
			t.Fatal(err)
		}
		if got, err := ReadResults(dir); err != nil || len(got.Trees) != 1 || len(got.Trees[0].Dist) != 50 {
			t.Errorf("%v: the old output is not intact before Close (%v)", format, err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got, err = ReadResults(dir)
		if err != nil {
			t.Fatal(err)
		}
		sameTrees(t, got.Trees, fresh, false)
		if entries, _ := os.ReadDir(parent); len(entries) != 1 {
			t.Errorf("%v: parent holds %d entries after Close, want 1", format, len(entries))
		}
	}
}

func TestReadResultsErrors(t *testing.T) {
	t.Parallel()
	rng := newRand(5)
	trees := []*paths.Tree{randomTree(rng, 40, 0, true, 0.1), randomTree(rng, 40, 1, true, 0.1)}
	dir := filepath.Join(t.TempDir(), "result")
	writeResults(t, dir, trees, true, WithBatchRows(10), WithPartRows(30))
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
		os.WriteFile(filepath.Join(holed, filepath.Base(parts[i])), fileBytes(t, parts[i]), 0o644)
	}
	if _, err := ReadResults(holed); err == nil || !strings.Contains(err.Error(), "follows") {
		t.Errorf("ReadResults with a missing part: %v, want a sequence error", err)
	}

	// A missing last part leaves a short tree.
	short := filepath.Join(t.TempDir(), "short")
	os.Mkdir(short, 0o755)
	for _, i := range []int{0, 1} {
		os.WriteFile(filepath.Join(short, filepath.Base(parts[i])), fileBytes(t, parts[i]), 0o644)
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
}

func TestResultPartRollover(t *testing.T) {
	t.Parallel()
	rng := newRand(13)
	trees := []*paths.Tree{randomTree(rng, 4, 0, true, 0.3), randomTree(rng, 4, 3, true, 0.3), randomTree(rng, 4, 1, true, 0.3)}
	for _, format := range formats {
		mem := checkedAllocator(t)
		dir := filepath.Join(t.TempDir(), "result")
		// One row per part: twelve parts, so name order must not be
		// confused by part-00010 sorting before part-00002.
		w := writeResults(t, dir, trees, true, WithFormat(format), WithAllocator(mem), WithPartRows(1))
		files := w.Files()
		if len(files) != 12 {
			t.Fatalf("%v: %d parts, want 12", format, len(files))
		}
		for i, f := range files {
			if want := filepath.Join(dir, fmt.Sprintf("part-%05d%s", i, format.Ext())); f.Path != want {
				t.Errorf("part %d is %s, want %s", i, f.Path, want)
			}
			checkInfo(t, f, 1)
		}
		got, err := ReadResults(dir, WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		sameTrees(t, got.Trees, trees, true)
	}
}

func TestResultCompression(t *testing.T) {
	t.Parallel()
	rng := newRand(17)
	trees := []*paths.Tree{randomTree(rng, 5000, 0, true, 0.1), randomTree(rng, 5000, 9, true, 0.1)}
	for _, format := range formats {
		size := map[Compression]int64{}
		for _, codec := range []Compression{Zstd, LZ4, Uncompressed} {
			mem := checkedAllocator(t)
			dir := filepath.Join(t.TempDir(), "result")
			w := writeResults(t, dir, trees, true, WithFormat(format), WithCompression(codec), WithAllocator(mem))
			size[codec] = w.Files()[0].Bytes
			got, err := ReadResults(dir, WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			sameTrees(t, got.Trees, trees, true)
		}
		if size[Zstd] >= size[Uncompressed] || size[LZ4] >= size[Uncompressed] {
			t.Errorf("%v: sizes zstd %d, lz4 %d, uncompressed %d: compression did not apply", format, size[Zstd], size[LZ4], size[Uncompressed])
		}
	}
}
