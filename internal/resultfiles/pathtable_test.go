package resultfiles

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

func randomPathRows(rng *rand.Rand, count int) []PathRow {
	rows := make([]PathRow, count)
	for i := range rows {
		r := PathRow{Source: rng.Int32N(100), Target: rng.Int32N(100), Cost: paths.Unreachable}
		switch rng.IntN(4) {
		case 0: // unreachable: null cost, null list
		case 1: // a path of length zero (target is the source)
			r.Cost, r.Vertices = 0, []int32{r.Source}
		case 2: // cost known, path not kept
			r.Cost = rng.Int64N(1 << 50)
		default:
			r.Cost = rng.Int64N(1<<50) - 1<<40
			r.Vertices = make([]int32, 1+rng.IntN(30))
			for j := range r.Vertices {
				r.Vertices[j] = rng.Int32N(1 << 30)
			}
		}
		rows[i] = r
	}
	return rows
}

func TestPathsRoundTrip(t *testing.T) {
	t.Parallel()
	for _, seed := range tablestest.Seeds(t) {
		rng := tablestest.NewRand(seed)
		rows := randomPathRows(rng, rng.IntN(2000))
		for _, c := range encodingCases(t) {
			path := filepath.Join(t.TempDir(), "paths")
			format := c.format
			info, err := WritePaths(path, rows, OriginalIDs{}, tablestest.Meta, append(c.write, tables.WithBatchRows(1+rng.IntN(300)))...)
			if err != nil {
				t.Fatal(err)
			}
			checkInfo(t, info, int64(len(rows)))
			got, meta, err := ReadPaths(path, append(c.read, tables.WithBatchRows(1+rng.IntN(300)))...)
			if err != nil {
				t.Fatal(err)
			}
			tablestest.SameMeta(t, meta, tablestest.Meta)
			if len(got) != len(rows) {
				t.Fatalf("%v: read %d rows, want %d", format, len(got), len(rows))
			}
			for i := range rows {
				g, w := got[i], rows[i]
				if g.Source != w.Source || g.Target != w.Target || g.Cost != w.Cost ||
					!slices.Equal(g.Vertices, w.Vertices) || (g.Vertices == nil) != (w.Vertices == nil) {
					t.Fatalf("%v seed %d: row %d is %+v, want %+v", format, seed, i, g, w)
				}
			}
		}
	}
}

func TestPathsSchemaGolden(t *testing.T) {
	t.Parallel()
	const golden = `schema:
  fields: 4
    - source: type=int32
    - target: type=int32
    - cost: type=int64, nullable
      metadata: ["unit": "weight"]
    - vertices: type=list<element: int32>, nullable
  metadata: ["k": "v"]`
	for _, format := range tableFormats {
		path := filepath.Join(t.TempDir(), "paths")
		if _, err := WritePaths(path, randomPathRows(tablestest.NewRand(1), 10), OriginalIDs{}, map[string]string{"k": "v"}, tables.WithFormat(format)); err != nil {
			t.Fatal(err)
		}
		tr, err := tables.OpenTable(path, defaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		got := tr.Schema().String()
		tr.Close()
		if got != golden {
			t.Errorf("%v file schema\n%s\nwant\n%s", format, got, golden)
		}
	}
}

func TestNewPathRow(t *testing.T) {
	t.Parallel()
	// 2 -> 0 -> 3; vertex 1 unreachable.
	tree := &paths.Tree{
		Source: 2,
		Dist:   []int64{4, paths.Unreachable, 0, 9},
		Parent: []int32{2, paths.NoParent, paths.NoParent, 0},
	}
	cases := []struct {
		target int32
		want   PathRow
	}{
		{3, PathRow{Source: 2, Target: 3, Cost: 9, Vertices: []int32{2, 0, 3}}},
		{2, PathRow{Source: 2, Target: 2, Cost: 0, Vertices: []int32{2}}},
		{1, PathRow{Source: 2, Target: 1, Cost: paths.Unreachable}},
	}
	for _, c := range cases {
		got := NewPathRow(tree, c.target)
		if got.Cost != c.want.Cost || !slices.Equal(got.Vertices, c.want.Vertices) || got.Source != 2 || got.Target != c.target {
			t.Errorf("NewPathRow(%d) = %+v, want %+v", c.target, got, c.want)
		}
	}
}

func TestPathsByteIdentical(t *testing.T) {
	t.Parallel()
	rows := randomPathRows(tablestest.NewRand(9), 500)
	for _, format := range tableFormats {
		a, b := filepath.Join(t.TempDir(), "p"), filepath.Join(t.TempDir(), "p")
		for _, p := range []string{a, b} {
			if _, err := WritePaths(p, rows, OriginalIDs{}, tablestest.Meta, tables.WithFormat(format), tables.WithBatchRows(128)); err != nil {
				t.Fatal(err)
			}
		}
		tablestest.SameBytes(t, a, b)
	}
}
