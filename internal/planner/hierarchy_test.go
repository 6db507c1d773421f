package planner

import (
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
)

// TestAutoCH pins which queries auto answers from a stored hierarchy.
func TestAutoCH(t *testing.T) {
	auto := backend.AlgorithmAuto
	for _, c := range []struct {
		q     Query
		ok    bool
		query string
	}{
		{Query{Algorithm: auto, Sources: 5, Targets: -1}, true, "5 sources, whole rows"},
		{Query{Algorithm: auto, Sources: 1, Targets: -1}, false, ""},
		{Query{Algorithm: auto, Sources: 1, Targets: -1, Sharded: true}, true, "a shard of a sharded run"},
		{Query{Algorithm: auto, Sources: 1, Targets: 3}, true, "1 sources x 3 targets"},
		{Query{Algorithm: auto, Sources: 4, Targets: -1, PairList: true}, true, "a pair list from 4 sources"},
		{Query{Algorithm: auto, AllSources: true, N: 4096, Sources: 4096, Targets: -1}, false, ""},
		{Query{Algorithm: auto, AllSources: true, N: 4097, Sources: 4097, Targets: -1}, true, "4097 sources, whole rows"},
		{Query{Algorithm: auto, Variant: backend.VariantFast, Sources: 5, Targets: -1}, false, ""},
		{Query{Algorithm: backend.AlgorithmDijkstra, Sources: 5, Targets: -1}, false, ""},
	} {
		ok, query := AutoCH(c.q)
		if ok != c.ok || query != c.query {
			t.Errorf("%+v: %t %q, want %t %q", c.q, ok, query, c.ok, c.query)
		}
	}
	if got := WithCH(backend.Algorithm{Name: auto, TileEdge: 16}); got != (backend.Algorithm{Name: backend.AlgorithmCH}) {
		t.Errorf("WithCH: %+v", got)
	}
}

// TestShardAlgorithm pins the shard adaptation: Johnson only for a split
// all-pairs auto run with negative weights.
func TestShardAlgorithm(t *testing.T) {
	auto := backend.AlgorithmAuto
	for _, c := range []struct {
		alg        string
		split, all bool
		lo         int32
		want       string
	}{
		{auto, true, true, -1, backend.AlgorithmJohnson},
		{auto, true, true, 0, auto},
		{auto, false, true, -1, auto},
		{auto, true, false, -1, auto},
		{backend.AlgorithmDijkstra, true, true, -1, backend.AlgorithmDijkstra},
	} {
		asked := false
		minWeight := func() int32 { asked = true; return c.lo }
		if got := ShardAlgorithm(c.alg, c.split, c.all, minWeight); got != c.want {
			t.Errorf("%+v: %q", c, got)
		}
		if cheap := !c.split || c.alg != auto || !c.all; cheap && asked {
			t.Errorf("%+v: the weights were read though the settings decide", c)
		}
	}
}
