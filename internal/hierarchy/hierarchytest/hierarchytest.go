// Package hierarchytest holds what the tests of the stored hierarchy
// formats share: a small road graph's hierarchy and the comparison of a
// hierarchy read back with the one written.
package hierarchytest

import (
	"context"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
)

// Road returns the road graph road:side=side,seed=seed and its hierarchy,
// laid out by the graph's coordinates and marked with its checksum. The
// road generator makes two-way roads, so the hierarchy's Down shares Up's
// arrays.
func Road(t testing.TB, side int32, seed uint64) (*graph.CSR, *hierarchy.Hierarchy) {
	t.Helper()
	e, vs, err := generate.Road(side, seed)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	h, err := hierarchy.Build(context.Background(), g, hierarchy.WithCoordinates(vs.X, vs.Y), hierarchy.WithChecksum(g.Checksum(2)))
	if err != nil {
		t.Fatal(err)
	}
	return g, h
}

// RequireSame fails t unless got holds exactly want's arrays and facts.
func RequireSame(t testing.TB, got, want *hierarchy.Hierarchy) {
	t.Helper()
	same := got.N == want.N && got.Rounds == want.Rounds && got.GraphChecksum == want.GraphChecksum &&
		slices.Equal(got.Rank, want.Rank) && slices.Equal(got.Order, want.Order) &&
		slices.Equal(got.UpMiddle, want.UpMiddle) && slices.Equal(got.DownMiddle, want.DownMiddle) &&
		slices.Equal(got.UpMetric, want.UpMetric) && slices.Equal(got.DownMetric, want.DownMetric) && got.Metric == want.Metric
	for _, pair := range [][2]*graph.CSR{{&got.Up, &want.Up}, {&got.Down, &want.Down}} {
		same = same && pair[0].N == pair[1].N && slices.Equal(pair[0].Offsets, pair[1].Offsets) &&
			slices.Equal(pair[0].Targets, pair[1].Targets) && slices.Equal(pair[0].Weights, pair[1].Weights)
	}
	if !same {
		t.Fatal("the hierarchy read back differs from the one written")
	}
}

// OwnDown returns a copy of h whose Down arrays are its own, not Up's, as
// Build made them for every graph before it let a symmetric graph's Down
// share Up's: a writer must give both the same bytes.
func OwnDown(h *hierarchy.Hierarchy) *hierarchy.Hierarchy {
	down := graph.CSR{N: h.Down.N, Offsets: slices.Clone(h.Down.Offsets),
		Targets: slices.Clone(h.Down.Targets), Weights: slices.Clone(h.Down.Weights)}
	return &hierarchy.Hierarchy{N: h.N, Rank: h.Rank, Order: h.Order, Up: h.Up, UpMiddle: h.UpMiddle,
		Down: down, DownMiddle: slices.Clone(h.DownMiddle), GraphChecksum: h.GraphChecksum, Rounds: h.Rounds}
}

// SharesDown reports whether h's Down uses Up's arrays.
func SharesDown(h *hierarchy.Hierarchy) bool {
	return len(h.Up.Targets) > 0 && len(h.Down.Targets) > 0 && &h.Up.Targets[0] == &h.Down.Targets[0] &&
		&h.Up.Weights[0] == &h.Down.Weights[0] && &h.UpMiddle[0] == &h.DownMiddle[0] && &h.Up.Offsets[0] == &h.Down.Offsets[0]
}
