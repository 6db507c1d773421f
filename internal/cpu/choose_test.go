package cpu

import (
	"errors"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/shortest"
)

func TestChoose(t *testing.T) {
	alg := func(name, variant string, blockSize int) backend.Algorithm {
		return backend.Algorithm{Name: name, Variant: variant, TileEdge: blockSize}
	}
	small := backend.Problem{N: 100, M: 400, MinWeight: 1, MaxWeight: 100, Sources: 100, AllSources: true}
	with := func(p backend.Problem, a backend.Algorithm, change func(*backend.Problem)) backend.Problem {
		p.Algorithm = a
		if change != nil {
			change(&p)
		}
		return p
	}
	oneSource := func(p *backend.Problem) { p.Sources, p.AllSources = 1, false }
	negative := func(p *backend.Problem) { p.MinWeight = -5 }
	sparse := func(p *backend.Problem) { p.N, p.M, p.Sources = 5000, 20000, 5000 }
	wide := func(p *backend.Problem) { p.MaxWeight = 1 << 30 }
	for _, c := range []struct {
		name     string
		p        backend.Problem
		want     backend.Algorithm
		allPairs bool
		int64    bool
		// errs: nil for success; else the errors it must wrap.
		errs []error
	}{
		{"auto, one source", with(small, alg("auto", "", 0), oneSource), alg("dijkstra", "", 0), false, true, nil},
		{"auto, one source, negative", with(small, alg("auto", "", 0), func(p *backend.Problem) { oneSource(p); negative(p) }), alg("bellman-ford", "", 0), false, true, nil},
		{"auto, all, small", with(small, alg("auto", "", 0), nil), alg("floyd-warshall", "blocked", 0), true, false, nil},
		{"auto, all, small, wide", with(small, alg("auto", "", 0), wide), alg("floyd-warshall", "blocked", 0), true, true, nil},
		{"auto, all, block size", with(small, alg("auto", "", 32), nil), alg("floyd-warshall", "blocked", 32), true, false, nil},
		{"auto, all, sparse", with(small, alg("auto", "", 32), sparse), alg("johnson", "", 0), false, true, nil},
		{"auto, all, sparse, negative", with(small, alg("auto", "", 0), func(p *backend.Problem) { sparse(p); negative(p) }), alg("johnson", "", 0), false, true, nil},
		{"auto, variant", with(small, alg("auto", "naive", 0), nil), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported}},
		{"auto, negative block size", with(small, alg("auto", "", -1), nil), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported}},
		{"sssp", with(small, alg("sssp", "", 0), oneSource), alg("dijkstra", "", 0), false, true, nil},
		{"sssp, negative", with(small, alg("sssp", "", 0), negative), alg("bellman-ford", "", 0), false, true, nil},
		{"sssp, variant", with(small, alg("sssp", "near-far", 0), nil), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported}},
		{"dijkstra, all", with(small, alg("dijkstra", "", 0), nil), alg("dijkstra", "", 0), false, true, nil},
		{"dijkstra, negative", with(small, alg("dijkstra", "", 0), negative), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported, shortest.ErrNegativeWeight}},
		{"dijkstra, block size", with(small, alg("dijkstra", "", 8), nil), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported}},
		{"bellman-ford, all, negative", with(small, alg("bellman-ford", "", 0), negative), alg("bellman-ford", "", 0), false, true, nil},
		{"bellman-ford, variant", with(small, alg("bellman-ford", "queue", 0), nil), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported}},
		{"johnson, small", with(small, alg("johnson", "", 0), nil), alg("johnson", "", 0), false, true, nil},
		{"johnson, variant", with(small, alg("johnson", "naive", 0), nil), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported}},
		{"floyd-warshall", with(small, alg("floyd-warshall", "", 0), sparse), alg("floyd-warshall", "blocked", 0), true, false, nil},
		{"floyd-warshall, one source", with(small, alg("floyd-warshall", "blocked", 64), oneSource), alg("floyd-warshall", "blocked", 64), true, false, nil},
		{"floyd-warshall naive, wide", with(small, alg("floyd-warshall", "naive", 0), wide), alg("floyd-warshall", "naive", 0), true, true, nil},
		{"floyd-warshall naive, block size", with(small, alg("floyd-warshall", "naive", 16), nil), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported}},
		{"floyd-warshall, negative block size", with(small, alg("floyd-warshall", "", -2), nil), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported}},
		{"floyd-warshall, unknown variant", with(small, alg("floyd-warshall", "fast", 0), nil), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported}},
		{"unknown", with(small, alg("bfs", "", 0), nil), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported}},
		{"empty", with(small, alg("", "", 0), nil), backend.Algorithm{}, false, false, []error{backend.ErrUnsupported}},
	} {
		got, err := Choose(c.p)
		if c.errs != nil {
			if err == nil {
				t.Errorf("%s: chose %+v, want an error", c.name, got)
			}
			for _, want := range c.errs {
				if !errors.Is(err, want) {
					t.Errorf("%s: %v does not wrap %v", c.name, err, want)
				}
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got.Algorithm != c.want || got.AllPairs != c.allPairs || got.Int64 != c.int64 || got.Reason == "" {
			t.Errorf("%s: got %+v, want %+v, all pairs %t, int64 %t, and a reason", c.name, got, c.want, c.allPairs, c.int64)
		}
	}
	_, err := Choose(backend.Problem{N: 3, MinWeight: -1, Algorithm: alg("dijkstra", "", 0)})
	if err == nil || !strings.Contains(err.Error(), "bellman-ford") {
		t.Errorf("dijkstra with negative weights: %v, want a pointer to bellman-ford", err)
	}
}

// TestChooseRefusesAnUnknownName pins the refusal's text, which lists
// every name compute.algorithm takes on the CPU.
func TestChooseRefusesAnUnknownName(t *testing.T) {
	_, err := Choose(backend.Problem{N: 3, Algorithm: backend.Algorithm{Name: "bfs"}})
	want := `cpu: unknown algorithm "bfs" (want auto, sssp, dijkstra, bellman-ford, floyd-warshall, johnson or ch) (not supported by this backend)`
	if err == nil || err.Error() != want || !errors.Is(err, backend.ErrUnsupported) {
		t.Errorf("err = %v, want %s", err, want)
	}
}
