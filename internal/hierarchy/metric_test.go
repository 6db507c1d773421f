package hierarchy

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
)

// metricGraphs are random graphs with a metric whose weights tie often
// (weights 0..4), so that many shortest paths differ only in their metric,
// one of them symmetric (both directions of a pair the same arc).
func metricGraphs(r *rand.Rand) map[string]*graph.CSR {
	directed := graphtest.WithMetric(r, graphtest.RandomGraph(r, 300, 1200, 0, 4, 0), 0, 50)
	sym := graph.NewEdgeList(200, 1000)
	for range 500 {
		u, v, w := r.Int32N(200), r.Int32N(200), r.Int32N(5)
		sym.Add(u, v, w)
		sym.Add(v, u, w)
	}
	sym.Metric = make([]int32, sym.M())
	for i := 0; i < sym.M(); i += 2 {
		m := r.Int32N(40)
		sym.Metric[i], sym.Metric[i+1] = m, m
	}
	return map[string]*graph.CSR{"directed": graph.BuildCSR(directed), "symmetric": graph.BuildCSR(sym)}
}

// TestMetricKeysAnswerLexicographicPaths checks that a hierarchy built from
// a graph with a metric answers, in key sums, the weight and metric of the
// path shortest by (weight, metric), as a reference that compares pairs
// finds them, through tables, whole trees and point queries, and that it
// still answers plain distances without keys.
func TestMetricKeysAnswerLexicographicPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(freshSeed(t), 7))
	for name, g := range metricGraphs(r) {
		t.Run(name, func(t *testing.T) {
			h := build(t, g)
			if !h.HasMetric() || h.Keyed() {
				t.Fatalf("HasMetric %v, Keyed %v; want a metric and no keys", h.HasMetric(), h.Keyed())
			}
			keyed, err := h.WithMetricKeys()
			if err != nil {
				t.Fatal(err)
			}
			sources := []int32{0, 5, 17, 99, g.N - 1}
			targets := make([]int32, g.N)
			for v := range targets {
				targets[v] = int32(v)
			}
			table, err := keyed.Table(sources, targets, 2)
			if err != nil {
				t.Fatal(err)
			}
			trees := make([]int64, len(sources)*int(g.N))
			if err := keyed.Trees(sources, trees, 2); err != nil {
				t.Fatal(err)
			}
			plain, err := h.Table(sources, targets, 2)
			if err != nil {
				t.Fatal(err)
			}
			q := NewQuery(keyed)
			for i, s := range sources {
				wantD, wantM := graphtest.Lexicographic(g, s)
				for v := range g.N {
					at := i*int(g.N) + int(v)
					if plain[at] != wantD[v] {
						t.Fatalf("plain %d -> %d = %d, want %d", s, v, plain[at], wantD[v])
					}
					for _, got := range []struct {
						how string
						key int64
					}{{"table", table[at]}, {"trees", trees[at]}, {"query", must(q.Distance(s, v))}} {
						if wantD[v] == paths.Unreachable {
							if got.key != paths.Unreachable {
								t.Fatalf("%s %d -> %d = %d, want unreachable", got.how, s, v, got.key)
							}
							continue
						}
						if d, m := graph.SplitKey(got.key); d != wantD[v] || m != wantM[v] {
							t.Fatalf("%s %d -> %d = (%d, %d), want (%d, %d)", got.how, s, v, d, m, wantD[v], wantM[v])
						}
					}
				}
			}
		})
	}
}

func must(d int64, err error) int64 {
	if err != nil {
		panic(err)
	}
	return d
}

// TestMetricKeysRefuseLongPaths checks that a keyed query that meets a
// path too long for a key (two arcs of the largest keyed weight) fails
// with ErrKeyRange, through tables, trees and point queries, rather than
// report no path, while the hierarchy without keys answers it.
func TestMetricKeysRefuseLongPaths(t *testing.T) {
	e := graph.NewEdgeList(4, 6)
	for v := range int32(3) {
		e.Add(v, v+1, graph.MaxKeyedWeight)
		e.Add(v+1, v, graph.MaxKeyedWeight)
	}
	e.Metric = make([]int32, e.M())
	g := graph.BuildCSR(e)
	h := build(t, g)
	if d, err := NewQuery(h).Distance(0, 3); err != nil || d != 3*graph.MaxKeyedWeight {
		t.Fatalf("plain distance %d (%v), want %d", d, err, 3*graph.MaxKeyedWeight)
	}
	keyed, err := h.WithMetricKeys()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := keyed.Table([]int32{0}, []int32{3}, 1); !errors.Is(err, ErrKeyRange) {
		t.Errorf("table: %v, want ErrKeyRange", err)
	}
	if err := keyed.Trees([]int32{0}, make([]int64, 4), 1); !errors.Is(err, ErrKeyRange) {
		t.Errorf("trees: %v, want ErrKeyRange", err)
	}
	if _, err := NewQuery(keyed).Distance(0, 3); !errors.Is(err, ErrKeyRange) {
		t.Errorf("query: %v, want ErrKeyRange", err)
	}
	// One arc fits.
	if d, err := NewQuery(keyed).Distance(0, 1); err != nil || d != graph.Key(graph.MaxKeyedWeight, 0) {
		t.Errorf("one arc: %d (%v)", d, err)
	}
}
