package gpu

import (
	"errors"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/graph"
)

func TestChooseResolvesAutoAndDefaults(t *testing.T) {
	for _, c := range []struct {
		name     string
		p        backend.Problem
		want     backend.Algorithm
		allPairs bool
	}{
		{"auto all sources", backend.Problem{N: 1000, M: 5000, MinWeight: 1, MaxWeight: 100, AllSources: true, Sources: 1000,
			Algorithm: backend.Algorithm{Name: "auto"}}, backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: allpairs.VariantFast}, true},
		{"no name all sources, negative", backend.Problem{N: 1000, M: 5000, MinWeight: -3, MaxWeight: 100, AllSources: true},
			backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: allpairs.VariantFast}, true},
		{"auto some sources", backend.Problem{N: 1000, M: 5000, MinWeight: 0, MaxWeight: 100, Sources: 3,
			Algorithm: backend.Algorithm{Name: "auto", Variant: "auto"}}, backend.Algorithm{Name: sssp.SSSPFamily, Variant: sssp.VariantNearFar}, false},
		{"auto negative", backend.Problem{N: 1000, M: 5000, MinWeight: -3, MaxWeight: 100, Sources: 3,
			Algorithm: backend.Algorithm{Name: "auto"}}, backend.Algorithm{Name: sssp.BellmanFordFamily, Variant: sssp.VariantBFFlags}, false},
		{"sssp negative", backend.Problem{N: 1000, M: 5000, MinWeight: -3, MaxWeight: 100, Sources: 3,
			Algorithm: backend.Algorithm{Name: sssp.SSSPFamily}}, backend.Algorithm{Name: sssp.SSSPFamily, Variant: sssp.VariantBFFlags}, false},
		{"dijkstra", backend.Problem{N: 1000, M: 5000, MinWeight: 1, MaxWeight: 100, Sources: 3,
			Algorithm: backend.Algorithm{Name: sssp.DijkstraFamily}}, backend.Algorithm{Name: sssp.DijkstraFamily, Variant: sssp.VariantDijkstra}, false},
		{"blocked gets its tile", backend.Problem{N: 1000, M: 5000, MinWeight: 1, MaxWeight: 100, Sources: 3,
			Algorithm: backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: allpairs.VariantBlocked}},
			backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: allpairs.VariantBlocked, TileEdge: allpairs.DefaultTileEdge}, true},
		{"fw some sources", backend.Problem{N: 1000, M: 5000, MinWeight: 1, MaxWeight: 100, Sources: 3,
			Algorithm: backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: "auto"}}, backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: allpairs.VariantFast}, true},
		{"no arcs, weights ignored", backend.Problem{N: 10, MinWeight: -5, Sources: 1, Algorithm: backend.Algorithm{Name: "auto"}},
			backend.Algorithm{Name: sssp.SSSPFamily, Variant: sssp.VariantNearFar}, false},
	} {
		got, err := choose(c.p)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got.Algorithm != c.want || got.AllPairs != c.allPairs || got.Int64 || got.Reason == "" {
			t.Errorf("%s: %+v, want %+v all pairs %v", c.name, got, c.want, c.allPairs)
		}
	}
}

func TestChooseRefuses(t *testing.T) {
	n := int32(1000)
	big := graph.Inf32/(n-1) + 1
	for _, c := range []struct {
		name string
		p    backend.Problem
		is   error
	}{
		{"johnson", backend.Problem{N: 10, M: 20, MinWeight: 1, MaxWeight: 9, AllSources: true,
			Algorithm: backend.Algorithm{Name: "johnson"}}, backend.ErrUnsupported},
		{"unknown variant", backend.Problem{N: 10, M: 20, MinWeight: 1, MaxWeight: 9,
			Algorithm: backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: "quick"}}, backend.ErrUnsupported},
		{"tile of fast", backend.Problem{N: 10, M: 20, MinWeight: 1, MaxWeight: 9,
			Algorithm: backend.Algorithm{Name: allpairs.AllPairsFamily, TileEdge: 64}}, backend.ErrUnsupported},
		{"dijkstra on negative weights", backend.Problem{N: 10, M: 20, MinWeight: -1, MaxWeight: 9,
			Algorithm: backend.Algorithm{Name: sssp.DijkstraFamily}}, backend.ErrUnsupported},
		{"fw overflow", backend.Problem{N: n, M: 5000, MinWeight: 1, MaxWeight: big, AllSources: true,
			Algorithm: backend.Algorithm{Name: "auto"}}, backend.ErrNeedsInt64},
		{"fw negative weights near half the bound", backend.Problem{N: n, M: 5000, MinWeight: -(graph.Inf32/(2*(n-1)) + 1), MaxWeight: 1,
			AllSources: true}, backend.ErrNeedsInt64},
		{"bellman-ford overflow", backend.Problem{N: n, M: 5000, MinWeight: 1, MaxWeight: big,
			Algorithm: backend.Algorithm{Name: sssp.BellmanFordFamily}}, backend.ErrNeedsInt64},
		{"bellman-ford negative weights near half the bound", backend.Problem{N: n, M: 5000, MinWeight: -(graph.Inf32/(2*(n-1)) + 1),
			MaxWeight: 1, Algorithm: backend.Algorithm{Name: "auto"}}, backend.ErrNeedsInt64},
		{"near-far with a weight at infinity", backend.Problem{N: 3, M: 2, MinWeight: 1, MaxWeight: graph.Inf32,
			Algorithm: backend.Algorithm{Name: sssp.SSSPFamily}}, backend.ErrNeedsInt64},
	} {
		_, err := choose(c.p)
		if !errors.Is(err, c.is) {
			t.Errorf("%s: %v, want an error wrapping %v", c.name, err, c.is)
		}
	}
}

func TestChooseLetsNearFarCheckBeyondTheBound(t *testing.T) {
	// A 4900 x 4900 grid with weights up to 1000: the worst case exceeds
	// int32, real distances do not, and near-far checks them as it runs.
	p := backend.Problem{N: 4900 * 4900, M: 4 * 4900 * 4900, MinWeight: 1, MaxWeight: 1000, Sources: 1,
		Algorithm: backend.Algorithm{Name: "auto"}}
	c, err := choose(p)
	if err != nil || c.Algorithm.Variant != sssp.VariantNearFar || !strings.Contains(c.Reason, "checks") {
		t.Fatalf("choice %+v, %v", c, err)
	}
	p.Algorithm = backend.Algorithm{Name: sssp.SSSPFamily, Variant: sssp.VariantBFFlags}
	if _, err := choose(p); !errors.Is(err, backend.ErrNeedsInt64) {
		t.Fatalf("bf-flags beyond the bound: %v", err)
	}
}

// A hierarchy cannot hold a negative arc: ch refuses such a graph.
func TestChooseCHRefusesNegativeWeights(t *testing.T) {
	_, err := choose(backend.Problem{N: 3, M: 2, MinWeight: -1, MaxWeight: 4, Sources: 1, Algorithm: backend.Algorithm{Name: sssp.AlgorithmCH}})
	if err == nil || !strings.Contains(err.Error(), "non-negative") {
		t.Fatalf("ch chosen for a graph with a negative weight: %v", err)
	}
	c, err := choose(backend.Problem{N: 3, M: 2, MinWeight: 1, MaxWeight: 4, Sources: 1, Algorithm: backend.Algorithm{Name: sssp.AlgorithmCH}})
	if err != nil || c.Algorithm.Name != sssp.AlgorithmCH {
		t.Fatalf("choose ch: %+v, %v", c, err)
	}
}

// TestChooseMetric: a run that asks for a metric is taken by ch and by
// the near-far search (sssp, auto's pick for some sources over
// non-negative weights); every other algorithm and variant, auto's
// all-pairs pick included, refuses it as unsupported so that auto runs
// it on the CPU.
func TestChooseMetric(t *testing.T) {
	p := backend.Problem{N: 1000, M: 5000, MinWeight: 1, MaxWeight: 100, Sources: 3, Metric: true}
	for _, alg := range []backend.Algorithm{{Name: sssp.AlgorithmCH}, {Name: "auto"}, {Name: sssp.SSSPFamily}, {Name: sssp.SSSPFamily, Variant: sssp.VariantNearFar}} {
		p.Algorithm = alg
		c, err := choose(p)
		if err != nil || (c.Algorithm.Name != sssp.AlgorithmCH && c.Algorithm.Variant != sssp.VariantNearFar) {
			t.Fatalf("%+v with a metric: %+v, %v", alg, c, err)
		}
	}
	refused := []backend.Algorithm{{Name: sssp.DijkstraFamily}, {Name: sssp.BellmanFordFamily}, {Name: allpairs.AllPairsFamily},
		{Name: sssp.SSSPFamily, Variant: sssp.VariantBFFlags}}
	for _, alg := range refused {
		p.Algorithm = alg
		if _, err := choose(p); !errors.Is(err, backend.ErrUnsupported) || !strings.Contains(err.Error(), "metric") {
			t.Errorf("%+v with a metric: %v, want unsupported naming the metric", alg, err)
		}
	}
	p.Algorithm, p.AllSources = backend.Algorithm{Name: "auto"}, true
	if _, err := choose(p); !errors.Is(err, backend.ErrUnsupported) {
		t.Errorf("auto over every source with a metric: %v, want unsupported", err)
	}
}
