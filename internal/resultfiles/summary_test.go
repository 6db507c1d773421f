package resultfiles

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

const u = paths.Unreachable

func TestSummarize(t *testing.T) {
	t.Parallel()
	big := int64(math.MaxInt64 - 1)
	cases := []struct {
		name      string
		tree      *paths.Tree
		reachable int64
		ecc       int64
		closeness float64 // NaN: null
	}{
		// r = 4 of n = 5, S = 2+3+5 = 10: (3/4)*(3/10).
		{"partial", &paths.Tree{Source: 0, Dist: []int64{0, 2, 3, u, 5}}, 4, 5, 0.225},
		// Strongly connected: the classic (n-1)/S = 2/3.
		{"all reached", &paths.Tree{Source: 0, Dist: []int64{0, 1, 2}}, 3, 2, 2.0 / 3},
		{"isolated", &paths.Tree{Source: 1, Dist: []int64{u, 0, u}}, 1, NoEccentricity, math.NaN()},
		{"single vertex", &paths.Tree{Source: 0, Dist: []int64{0}}, 1, NoEccentricity, math.NaN()},
		{"zero weights", &paths.Tree{Source: 2, Dist: []int64{0, 0, 0}}, 3, 0, math.NaN()},
		{"negative sum", &paths.Tree{Source: 1, Dist: []int64{-4, 0, 1}}, 3, 1, math.NaN()},
		// S overflows int64: 2/(2*(2^63-2)).
		{"huge", &paths.Tree{Source: 0, Dist: []int64{0, big, big}}, 3, big, 2.0 / (2 * float64(big))},
	}
	for _, c := range cases {
		got := Summarize(c.tree)
		if got.Source != c.tree.Source || got.Reachable != c.reachable || got.Eccentricity != c.ecc {
			t.Errorf("%s: Summarize = %+v, want reachable %d, eccentricity %d", c.name, got, c.reachable, c.ecc)
		}
		if math.IsNaN(c.closeness) != math.IsNaN(got.Closeness) ||
			(!math.IsNaN(c.closeness) && math.Abs(got.Closeness-c.closeness) > 1e-12*c.closeness) {
			t.Errorf("%s: closeness %v, want %v", c.name, got.Closeness, c.closeness)
		}
	}
}

func TestSummaryRoundTrip(t *testing.T) {
	t.Parallel()
	for _, seed := range tablestest.Seeds(t) {
		rng := tablestest.NewRand(seed)
		rows := make([]SummaryRow, rng.IntN(3000))
		for i := range rows {
			rows[i] = Summarize(randomTree(rng, 1+rng.IntN(20), 0, false, rng.Float64()))
			rows[i].Source = int32(i)
		}
		for _, c := range encodingCases(t) {
			path := filepath.Join(t.TempDir(), "summary")
			format := c.format
			info, err := WriteSummary(path, rows, OriginalIDs{}, tablestest.Meta, append(c.write, tables.WithBatchRows(1+rng.IntN(1000)))...)
			if err != nil {
				t.Fatal(err)
			}
			checkInfo(t, info, int64(len(rows)))
			got, meta, err := ReadSummary(path, c.read...)
			if err != nil {
				t.Fatal(err)
			}
			tablestest.SameMeta(t, meta, tablestest.Meta)
			if len(got) != len(rows) {
				t.Fatalf("%v: read %d rows, want %d", format, len(got), len(rows))
			}
			for i, w := range rows {
				g := got[i]
				sameClose := g.Closeness == w.Closeness || (math.IsNaN(g.Closeness) && math.IsNaN(w.Closeness))
				if g.Source != w.Source || g.Reachable != w.Reachable || g.Eccentricity != w.Eccentricity || !sameClose {
					t.Fatalf("%v seed %d: row %d is %+v, want %+v", format, seed, i, g, w)
				}
			}
		}
	}
}

func TestSummarySchemaGolden(t *testing.T) {
	t.Parallel()
	const golden = `schema:
  fields: 4
    - source: type=int32
    - reachable: type=int64
    - eccentricity: type=int64, nullable
              metadata: ["unit": "weight"]
    - closeness: type=float64, nullable`
	for _, format := range tableFormats {
		path := filepath.Join(t.TempDir(), "summary")
		rows := []SummaryRow{Summarize(&paths.Tree{Source: 0, Dist: []int64{0, u}})}
		if _, err := WriteSummary(path, rows, OriginalIDs{}, nil, tables.WithFormat(format)); err != nil {
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
