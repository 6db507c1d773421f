//go:build cuda

package gpu_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/gputest"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/paths/testgraphs"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

// gpuAlgorithms are every algorithm and variant the backend runs.
func gpuAlgorithms() []backend.Algorithm {
	var algs []backend.Algorithm
	for _, v := range allpairs.Variants {
		algs = append(algs, backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: v})
	}
	for _, v := range sssp.Variants {
		algs = append(algs, backend.Algorithm{Name: sssp.SSSPFamily, Variant: v})
	}
	return append(algs, backend.Algorithm{Name: sssp.AlgorithmCH})
}

// TestRunOnTestGraphs runs every GPU algorithm and variant, with and
// without parents, on the hand-checked graphs.
func TestRunOnTestGraphs(t *testing.T) {
	b := backendtest.Default()
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

// choose is the registered GPU factory's Choose.
func choose(p backend.Problem) (backend.Choice, error) {
	f, ok := backend.Lookup(gpu.Name)
	if !ok {
		return backend.Choice{}, errors.New(`a cuda build did not register "gpu"`)
	}
	return f.Choose(p)
}

func runTestGraph(t *testing.T, b *gpu.Backend, g *testgraphs.Graph, alg backend.Algorithm, parents bool) {
	e := g.EdgeList()
	lo, hi := e.WeightRange()
	choice, err := choose(backend.Problem{N: e.N, M: int64(e.M()), MinWeight: lo, MaxWeight: hi,
		Sources: len(g.Sources), Algorithm: alg})
	if g.Int64 {
		// int32 distances cannot hold the answer: Choose must refuse.
		if err == nil {
			t.Fatalf("distances beyond int32: chose %+v, want a refusal", choice)
		}
		return
	}
	if g.Negative() && (alg.Variant == sssp.VariantNearFar || alg.Variant == sssp.VariantDijkstra || alg.Name == sssp.AlgorithmCH) {
		if !errors.Is(err, device.ErrNotSupported) {
			t.Fatalf("negative weights: %v, want device.ErrNotSupported", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	req := backend.Request{Shape: results.Shape{Sources: g.Sources, Columns: results.ColumnsOf().With(results.Parent, parents), MaxDistance: results.NoCutoff}, Edges: e, CSR: g.CSR(), Choice: choice}
	var mu sync.Mutex
	var done, total int64
	req.Progress = func(d, n int64) { mu.Lock(); done, total = max(done, d), n; mu.Unlock() }
	trees := make([]*paths.Tree, len(g.Sources))
	err = b.Run(context.Background(), req, func(rows *results.Rows) error {
		defer rows.Release()
		mu.Lock()
		defer mu.Unlock()
		for i := range rows.Len() {
			trees[rows.First+i] = rows.Tree(i).Copy()
		}
		return nil
	})
	// Floyd-Warshall's matrix also finds a cycle no source reaches.
	if !shortesttest.CheckRun(t, g, err, trees, g.NegativeCycle || (g.UnreachableCycle && alg.Name == allpairs.AllPairsFamily)) {
		return
	}
	if done != total || total == 0 {
		t.Errorf("progress %d of %d %s", done, total, backend.ProgressUnit(choice))
	}
}

func TestRegisteredFactory(t *testing.T) {
	f, ok := backend.Lookup(gpu.Name)
	if !ok {
		t.Fatal(`a cuda build did not register "gpu"`)
	}
	if ok, why := f.Available(); !ok || why == "" {
		t.Fatalf("Available = %v, %q", ok, why)
	}
	e := graphtest.RandomGraph(rand.New(rand.NewPCG(backendtest.FreshSeed(t), 2)), 50, 200, 1, 9, 0)
	g := graph.BuildCSR(e)
	choice, err := f.Choose(backend.Problem{N: 50, M: 200, MinWeight: 1, MaxWeight: 9, Sources: 2,
		Algorithm: backend.Algorithm{Name: "auto"}})
	if err != nil || choice.Algorithm != (backend.Algorithm{Name: sssp.SSSPFamily, Variant: sssp.VariantNearFar}) {
		t.Fatalf("Choose: %+v, %v", choice, err)
	}
	be, err := f.Open(backend.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer backendtest.CloseChecked(t, "the backend", be)
	if be.Name() != gpu.Name || !strings.Contains(be.Device(), "sm_") {
		t.Fatalf("Name %q, Device %q", be.Name(), be.Device())
	}
	req := backend.Request{Shape: results.Shape{Sources: []int32{7, 3}, Columns: results.ColumnsOf(results.Parent), MaxDistance: results.NoCutoff}, Edges: e, CSR: g, Choice: choice}
	col := gputest.NewCollector(&req, false)
	col.Check = func(b *results.Rows) error {
		return gputest.CheckBlock(g, b, func(s int32) []int64 { return graphtest.Dijkstra(g, s) }, true)
	}
	if err := be.Run(context.Background(), req, col.Sink); err != nil {
		t.Fatal(err)
	}
	if _, err := col.Done(); err != nil {
		t.Fatal(err)
	}
}
