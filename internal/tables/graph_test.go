package tables

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// randomGraph is a graph of m random arcs on n vertices, weights in
// [-1000, 1000].
func randomGraph(rng *rand.Rand, n int32, m int) *graph.EdgeList {
	return graphtest.RandomGraph(rng, n, m, -1000, 1000, 0)
}

func TestGraphRoundTrip(t *testing.T) {
	t.Parallel()
	for _, seed := range tablestest.Seeds(t) {
		rng := tablestest.NewRand(seed)
		n := int32(1 + rng.IntN(3000))
		e := randomGraph(rng, n, rng.IntN(10000))
		orig := make([]int64, n)
		x, y := make([]int32, n), make([]int32, n)
		for v := range orig {
			orig[v] = rng.Int64N(1<<40) + 1
			x[v], y[v] = rng.Int32(), -rng.Int32()
		}
		vertexCases := map[string]*graph.Vertices{
			"nil":         nil,
			"ids":         {OriginalID: orig},
			"coordinates": {X: x, Y: y},
			"both":        {OriginalID: orig, X: x, Y: y},
		}
		for _, format := range formats {
			for name, vs := range vertexCases {
				t.Run(format.String()+"/"+name, func(t *testing.T) {
					mem := tablestest.CheckedAllocator(t)
					files := GraphFilesIn(t.TempDir(), format)
					batch := 1 + e.M()/16 + rng.IntN(e.M()/4+1) // several batches, a ragged last one
					infos, err := WriteGraph(files, e, vs, tablestest.Meta, WithFormat(format), WithAllocator(mem), WithBatchRows(batch))
					if err != nil {
						t.Fatal(err)
					}
					if len(infos) != 2 {
						t.Fatalf("%d file infos, want 2", len(infos))
					}
					checkInfo(t, infos[0], int64(e.M()))
					checkInfo(t, infos[1], int64(n))
					if got, _ := DetectFileFormat(files.Edges); got != format {
						t.Errorf("edges file detected as %v, want %v", got, format)
					}

					e2, vs2, meta, err := ReadGraph(files, WithAllocator(mem), WithBatchRows(1+e.M()/8+rng.IntN(5000)))
					if err != nil {
						t.Fatal(err)
					}
					tablestest.SameMeta(t, meta, tablestest.Meta)
					if e2.N != e.N || !slices.Equal(e2.Src, e.Src) || !slices.Equal(e2.Dst, e.Dst) || !slices.Equal(e2.Weight, e.Weight) {
						t.Errorf("edges differ after a round trip (seed %d)", seed)
					}
					wantOrig := []int64(nil)
					if vs != nil {
						wantOrig = vs.OriginalID
					}
					if !slices.Equal(vs2.OriginalID, wantOrig) {
						t.Errorf("original ids differ after a round trip")
					}
					if vs.HasCoordinates() != vs2.HasCoordinates() {
						t.Fatalf("coordinates known %v, read back %v", vs.HasCoordinates(), vs2.HasCoordinates())
					}
					if vs.HasCoordinates() && (!slices.Equal(vs2.X, vs.X) || !slices.Equal(vs2.Y, vs.Y)) {
						t.Errorf("coordinates differ after a round trip")
					}
					for _, v := range []int32{0, n - 1} {
						if vs2.Original(v) != vs.Original(v) {
							t.Errorf("Original(%d) = %d, want %d", v, vs2.Original(v), vs.Original(v))
						}
					}
				})
			}
		}
	}
}

func TestGraphCoordinateColumnsOmitted(t *testing.T) {
	t.Parallel()
	files := GraphFilesIn(t.TempDir(), Parquet)
	e := graph.NewEdgeList(3, 1)
	e.Add(0, 2, 5)
	if _, err := WriteGraph(files, e, nil, nil); err != nil {
		t.Fatal(err)
	}
	tr, err := OpenTable(files.Vertices, defaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	const want = "schema:\n  fields: 2\n    - id: type=int32\n    - original_id: type=int64"
	if got := tr.schema.String(); got != want {
		t.Errorf("vertices schema\n%s\nwant\n%s", got, want)
	}
}

func TestGraphByteIdentical(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(7)
	e := randomGraph(rng, 500, 3000)
	vs := &graph.Vertices{X: make([]int32, 500), Y: make([]int32, 500)}
	for _, format := range formats {
		a, b := GraphFilesIn(t.TempDir(), format), GraphFilesIn(t.TempDir(), format)
		for _, files := range []GraphFiles{a, b} {
			if _, err := WriteGraph(files, e, vs, tablestest.Meta, WithFormat(format), WithBatchRows(1000)); err != nil {
				t.Fatal(err)
			}
		}
		tablestest.SameBytes(t, a.Edges, b.Edges)
		tablestest.SameBytes(t, a.Vertices, b.Vertices)
	}
}

func TestWriteGraphRejects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := GraphFilesIn(dir, Parquet)
	e := graph.NewEdgeList(2, 1)
	e.Add(0, 1, 1)
	bad := graph.NewEdgeList(2, 1)
	bad.Add(0, 2, 1)
	cases := map[string]func() error{
		"arc out of range": func() error { _, err := WriteGraph(files, bad, nil, nil); return err },
		"short ids": func() error {
			_, err := WriteGraph(files, e, &graph.Vertices{OriginalID: []int64{1}}, nil)
			return err
		},
		"x without y": func() error {
			_, err := WriteGraph(files, e, &graph.Vertices{X: []int32{1, 2}}, nil)
			return err
		},
		"reserved metadata": func() error {
			_, err := WriteGraph(files, e, nil, map[string]string{"ARROW:schema": "x"})
			return err
		},
		"zero batch": func() error { _, err := WriteGraph(files, e, nil, nil, WithBatchRows(0)); return err },
	}
	for name, write := range cases {
		if err := write(); err == nil {
			t.Errorf("%s: WriteGraph succeeded", name)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("rejected writes left %v", left)
	}
}

// A failure writing the second table must leave the first one unchanged.
func TestWriteGraphAtomicPair(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := GraphFilesIn(dir, Arrow)
	e := graph.NewEdgeList(2, 1)
	e.Add(0, 1, 1)
	if _, err := WriteGraph(files, e, nil, nil, WithFormat(Arrow)); err != nil {
		t.Fatal(err)
	}
	before := tablestest.FileBytes(t, files.Edges)
	e2 := graph.NewEdgeList(2, 2)
	e2.Add(1, 0, 9)
	e2.Add(0, 0, 3)
	broken := files
	broken.Vertices = filepath.Join(dir, "missing", "vertices.arrow")
	if _, err := WriteGraph(broken, e2, nil, nil, WithFormat(Arrow)); err == nil {
		t.Fatal("WriteGraph into a missing folder succeeded")
	}
	if after := tablestest.FileBytes(t, files.Edges); string(after) != string(before) {
		t.Error("the edges table changed although the write failed")
	}
	if left, _ := os.ReadDir(dir); len(left) != 2 {
		t.Errorf("folder holds %d entries, want the 2 tables", len(left))
	}
}

func TestReadGraphErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := GraphFilesIn(dir, Parquet)
	e := graph.NewEdgeList(3, 1)
	e.Add(0, 2, 5)
	if _, err := WriteGraph(files, e, nil, nil); err != nil {
		t.Fatal(err)
	}
	good := tablestest.FileBytes(t, files.Edges)

	// Tables swapped: the columns do not match.
	if _, _, _, err := ReadGraph(GraphFiles{Edges: files.Vertices, Vertices: files.Edges}); err == nil {
		t.Error("ReadGraph of swapped tables succeeded")
	}
	// Fewer vertices than the arcs need.
	small := GraphFilesIn(t.TempDir(), Parquet)
	if _, err := WriteGraph(small, graph.NewEdgeList(2, 0), nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := ReadGraph(GraphFiles{Edges: files.Edges, Vertices: small.Vertices}); err == nil {
		t.Error("ReadGraph with arcs outside the vertex range succeeded")
	}
	// Not a table, and truncated or damaged tables.
	corrupt := filepath.Join(dir, "corrupt")
	damaged := append([]byte(nil), good...)
	for i := len(damaged) / 3; i < len(damaged)*2/3; i++ {
		damaged[i] ^= 0x5a
	}
	for name, data := range map[string][]byte{
		"text":      []byte("p sp 3 1\na 1 3 5\n"),
		"truncated": good[:len(good)/2],
		"damaged":   damaged,
		"empty":     nil,
	} {
		if err := os.WriteFile(corrupt, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := ReadGraph(GraphFiles{Edges: corrupt, Vertices: files.Vertices}); err == nil {
			t.Errorf("%s: ReadGraph succeeded", name)
		}
	}
	if _, _, _, err := ReadGraph(GraphFiles{Edges: files.Edges, Vertices: filepath.Join(dir, "nope")}); err == nil {
		t.Error("ReadGraph of a missing file succeeded")
	}
}

// TestGraphRecords checks the in-memory batches against the graph: the
// arcs in order, identity ids, the original ids and coordinates, the
// metadata, and that releasing them frees everything.
func TestGraphRecords(t *testing.T) {
	t.Parallel()
	mem := tablestest.CheckedAllocator(t)
	e := randomGraph(tablestest.NewRand(3), 50, 700)
	vs := &graph.Vertices{OriginalID: make([]int64, 50), X: make([]int32, 50), Y: make([]int32, 50)}
	for v := range vs.OriginalID {
		vs.OriginalID[v], vs.X[v], vs.Y[v] = int64(1000+v), int32(v), -int32(v)
	}
	edges, vertices, err := GraphRecords(e, vs, tablestest.Meta, WithAllocator(mem), WithBatchRows(300))
	if err != nil {
		t.Fatal(err)
	}
	var src, dst, wt, ids, x []int32
	var orig []int64
	for _, rec := range edges {
		src = append(src, rec.Column(0).(*array.Int32).Int32Values()...)
		dst = append(dst, rec.Column(1).(*array.Int32).Int32Values()...)
		wt = append(wt, rec.Column(2).(*array.Int32).Int32Values()...)
		tablestest.SameMeta(t, UserMeta(rec.Schema()), tablestest.Meta)
		rec.Release()
	}
	for _, rec := range vertices {
		ids = append(ids, rec.Column(0).(*array.Int32).Int32Values()...)
		orig = append(orig, rec.Column(1).(*array.Int64).Int64Values()...)
		x = append(x, rec.Column(2).(*array.Int32).Int32Values()...)
		rec.Release()
	}
	if len(edges) != 3 || len(vertices) != 1 {
		t.Errorf("%d edge batches, %d vertex batches; want 3 and 1", len(edges), len(vertices))
	}
	if !slices.Equal(src, e.Src) || !slices.Equal(dst, e.Dst) || !slices.Equal(wt, e.Weight) {
		t.Error("edge columns differ from the graph")
	}
	if len(ids) != 50 || ids[49] != 49 || !slices.Equal(orig, vs.OriginalID) || !slices.Equal(x, vs.X) {
		t.Error("vertex columns differ from the graph")
	}
	if _, _, err := GraphRecords(e, &graph.Vertices{OriginalID: []int64{1}}, nil); err == nil {
		t.Error("short original ids accepted")
	}
}
