//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/paths/testgraphs"
)

// gpuAlgorithms are every algorithm and variant the backend runs.
func gpuAlgorithms() []backend.Algorithm {
	var algs []backend.Algorithm
	for _, v := range Variants {
		algs = append(algs, backend.Algorithm{Name: AllPairsFamily, Variant: v})
	}
	for _, v := range SSSPVariants {
		algs = append(algs, backend.Algorithm{Name: SSSPFamily, Variant: v})
	}
	return append(algs, backend.Algorithm{Name: AlgorithmCH})
}

// TestRunOnTestGraphs runs every GPU algorithm and variant, with and
// without parents, on the hand-checked graphs.
func TestRunOnTestGraphs(t *testing.T) {
	b := defaultBackend()
	for _, g := range testgraphs.Graphs {
		for _, alg := range gpuAlgorithms() {
			for _, parents := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s-%s/parents=%t", g.Name, alg.Name, alg.Variant, parents), func(t *testing.T) {
					runTestGraph(t, b, &g, alg, parents)
				})
			}
		}
	}
}

func runTestGraph(t *testing.T, b *Backend, g *testgraphs.Graph, alg backend.Algorithm, parents bool) {
	e := g.EdgeList()
	lo, hi := e.WeightRange()
	choice, err := choose(backend.Problem{N: e.N, M: int64(e.M()), MinWeight: lo, MaxWeight: hi,
		Sources: len(g.Sources), Algorithm: alg, Parents: parents})
	if g.Negative() && (alg.Variant == VariantNearFar || alg.Variant == VariantDijkstra || alg.Name == AlgorithmCH) {
		if !errors.Is(err, ErrNotSupported) {
			t.Fatalf("negative weights: %v, want ErrNotSupported", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	req := backend.Request{Edges: e, CSR: g.CSR(), Sources: g.Sources, Choice: choice, Parents: parents, MaxDistance: backend.NoCutoff}
	var mu sync.Mutex
	var done, total int64
	req.Progress = func(d, n int64) { mu.Lock(); done, total = max(done, d), n; mu.Unlock() }
	trees := make([]*paths.Tree, len(g.Sources))
	err = b.Run(context.Background(), req, func(rows *backend.Rows) error {
		defer rows.Release()
		mu.Lock()
		defer mu.Unlock()
		for i := range rows.Len() {
			trees[rows.First+i] = rows.Tree(i)
		}
		return nil
	})
	if g.NegativeCycle {
		var cycle *NegativeCycleError
		if !errors.As(err, &cycle) {
			t.Fatalf("negative cycle: %v, want a *NegativeCycleError", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, tree := range trees {
		if err := g.Check(i, tree.Dist, tree.Parent); err != nil {
			t.Error(err)
		}
	}
	if done != total || total == 0 {
		t.Errorf("progress %d of %d %s", done, total, backend.ProgressUnit(choice))
	}
}
