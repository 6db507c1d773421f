package resultfiles

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// sparseIDs names the vertices 0..n-1 by ids far apart and out of order,
// as a SNAP file or an OpenStreetMap extract does.
func sparseIDs(rng *rand.Rand, n int) *graph.Vertices {
	ids := make([]int64, n)
	for v := range ids {
		ids[v] = int64(v)*1_000_003 + rng.Int64N(1000) + 1<<40
	}
	rng.Shuffle(n, func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return &graph.Vertices{OriginalID: ids}
}

// pathRowsOver is randomPathRows with every vertex below n.
func pathRowsOver(rng *rand.Rand, count int, n int32) []PathRow {
	rows := randomPathRows(rng, count)
	for i := range rows {
		rows[i].Source, rows[i].Target = rows[i].Source%n, rows[i].Target%n
		for j := range rows[i].Vertices {
			rows[i].Vertices[j] %= n
		}
	}
	return rows
}

// readColumns reads a table file's columns by name, the batches
// concatenated in order as arrays of values.
func readColumns(t *testing.T, path string, opts []tables.Option) (map[string][]arrow.Array, *arrow.Schema) {
	t.Helper()
	cfg, err := tables.NewConfig(opts)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tables.OpenTable(path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	cols := map[string][]arrow.Array{}
	err = tr.Scan(func(rec arrow.RecordBatch) error {
		for i, f := range rec.Schema().Fields() {
			c := rec.Column(i)
			c.Retain()
			t.Cleanup(c.Release)
			cols[f.Name] = append(cols[f.Name], c)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return cols, tr.Schema()
}

// int64sOf flattens the chunks of an int64 column.
func int64sOf(chunks []arrow.Array) []int64 {
	var out []int64
	for _, c := range chunks {
		out = append(out, c.(*array.Int64).Int64Values()...)
	}
	return out
}

func TestPathsWithOriginalIDs(t *testing.T) {
	t.Parallel()
	const goldenFields = `    - source: type=int32
    - target: type=int32
    - cost: type=int64, nullable
      metadata: ["unit": "weight"]
    - vertices: type=list<element: int32>, nullable
    - source_original_id: type=int64
    - target_original_id: type=int64
    - vertices_original_id: type=list<element: int64>, nullable`
	rng := tablestest.NewRand(30)
	const n = 100
	for _, c := range encodingCases(t) {
		vs := sparseIDs(rng, n)
		rows := pathRowsOver(rng, 700, n)
		path := filepath.Join(t.TempDir(), "paths")
		if _, err := WritePaths(path, rows, OriginalIDs{Write: true, Vertices: vs}, tablestest.Meta, append(c.write, tables.WithBatchRows(64))...); err != nil {
			t.Fatal(err)
		}
		cols, schema := readColumns(t, path, c.read)
		if got := schema.String(); !strings.Contains(got, "fields: 7\n"+goldenFields+"\n") {
			t.Errorf("%v file schema\n%s\nwant the fields\n%s", c.format, got, goldenFields)
		}
		sources, targets := int64sOf(cols[ColSourceOriginal]), int64sOf(cols[ColTargetOriginal])
		var lists [][]int64 // nil: a null list
		for _, chunk := range cols[ColVerticesOriginal] {
			list := chunk.(*array.List)
			values := list.ListValues().(*array.Int64).Int64Values()
			for i := range list.Len() {
				if !list.IsValid(i) {
					lists = append(lists, nil)
					continue
				}
				start, end := list.ValueOffsets(i)
				lists = append(lists, append([]int64{}, values[start:end]...))
			}
		}
		if len(sources) != len(rows) || len(targets) != len(rows) || len(lists) != len(rows) {
			t.Fatalf("%v: %d, %d and %d original ids for %d rows", c.format, len(sources), len(targets), len(lists), len(rows))
		}
		for i, r := range rows {
			var want []int64
			for _, v := range r.Vertices {
				want = append(want, vs.OriginalID[v])
			}
			if sources[i] != vs.OriginalID[r.Source] || targets[i] != vs.OriginalID[r.Target] ||
				(lists[i] == nil) != (r.Vertices == nil) || !slices.Equal(lists[i], want) {
				t.Fatalf("%v row %d (%+v): original ids %d, %d, %v; want %d, %d, %v", c.format, i, r,
					sources[i], targets[i], lists[i], vs.OriginalID[r.Source], vs.OriginalID[r.Target], want)
			}
		}
		back, _, err := ReadPaths(path, c.read...)
		if err != nil || len(back) != len(rows) || back[5].Source != rows[5].Source || !slices.Equal(back[5].Vertices, rows[5].Vertices) {
			t.Errorf("%v: ReadPaths of a table with original ids: %d rows, %v", c.format, len(back), err)
		}
	}
}

func TestSummaryWithOriginalIDs(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(31)
	vs := sparseIDs(rng, 50)
	rows := make([]SummaryRow, 50)
	for i := range rows {
		rows[i] = Summarize(randomTree(rng, 50, int32(49-i), false, 0.3))
	}
	for _, c := range encodingCases(t) {
		for _, ids := range []OriginalIDs{{Write: true, Vertices: vs}, {Write: true}} {
			path := filepath.Join(t.TempDir(), "summary")
			if _, err := WriteSummary(path, rows, ids, nil, append(c.write, tables.WithBatchRows(7))...); err != nil {
				t.Fatal(err)
			}
			cols, schema := readColumns(t, path, c.read)
			if f, ok := schema.FieldsByName(ColSourceOriginal); !ok || schema.NumFields() != 5 || schema.Field(4).Name != ColSourceOriginal || f[0].Type.ID() != arrow.INT64 {
				t.Errorf("%v schema %s: want source_original_id int64 last", c.format, schema)
			}
			got := int64sOf(cols[ColSourceOriginal])
			for i, r := range rows {
				want := int64(r.Source) // no ids given: the dense ids are the input's
				if ids.Vertices != nil {
					want = vs.OriginalID[r.Source]
				}
				if i >= len(got) || got[i] != want {
					t.Fatalf("%v row %d (source %d): %v, want %d", c.format, i, r.Source, got, want)
				}
			}
		}
	}
}

// TestPathsWithOriginalIDsOfNoPath writes the table's corner cases: no
// row at all, and rows whose paths are all null or empty of parents.
func TestPathsWithOriginalIDsOfNoPath(t *testing.T) {
	t.Parallel()
	vs := &graph.Vertices{OriginalID: []int64{70, 80}}
	ids := OriginalIDs{Write: true, Vertices: vs}
	for _, format := range tableFormats {
		for _, rows := range [][]PathRow{nil, {{Source: 1, Target: 0, Cost: paths.Unreachable}, {Source: 0, Target: 0, Cost: 0, Vertices: []int32{0}}}} {
			path := filepath.Join(t.TempDir(), "paths")
			if _, err := WritePaths(path, rows, ids, nil, tables.WithFormat(format)); err != nil {
				t.Fatal(err)
			}
			cols, _ := readColumns(t, path, nil)
			if len(rows) == 0 {
				continue
			}
			lists := cols[ColVerticesOriginal][0].(*array.List)
			if lists.IsValid(0) || !lists.IsValid(1) || lists.ListValues().(*array.Int64).Value(0) != 70 ||
				!slices.Equal(int64sOf(cols[ColSourceOriginal]), []int64{80, 70}) {
				t.Errorf("%v: %v, %v", format, lists, cols[ColSourceOriginal])
			}
		}
	}
}
