package cpu

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/paths/testgraphs"
	"github.com/pathflow/pathflow/internal/shortest"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

// cpuAlgorithms are every algorithm and variant Run implements.
var cpuAlgorithms = []backend.Algorithm{
	{Name: backend.AlgorithmDijkstra},
	{Name: backend.AlgorithmBellmanFord},
	{Name: backend.AlgorithmJohnson},
	{Name: backend.AlgorithmFloydWarshall, Variant: VariantBlocked},
	{Name: backend.AlgorithmFloydWarshall, Variant: VariantBlocked, TileEdge: 2},
	{Name: backend.AlgorithmFloydWarshall, Variant: VariantNaive},
}

// progressRecorder keeps the largest done and the total of the Progress
// calls of one run.
type progressRecorder struct {
	mu          sync.Mutex
	done, total int64
	calls       int
}

func (p *progressRecorder) report(done, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total, p.calls = max(p.done, done), total, p.calls+1
}

func (p *progressRecorder) check(req *backend.Request) error {
	want := int64(len(req.Sources))
	if req.Choice.AllPairs {
		want = int64(req.Edges.N)
	}
	if p.calls == 0 || p.done != p.total || p.total != want {
		return fmt.Errorf("progress: %d calls, done %d of %d, want %d of %d %s", p.calls, p.done, p.total, want, want, backend.ProgressUnit(req.Choice))
	}
	return nil
}

// TestRunOnTestGraphs runs every algorithm and variant, with and without
// parents, on the hand-checked graphs, and checks that progress reaches
// its total.
func TestRunOnTestGraphs(t *testing.T) {
	b := New(2)
	for _, g := range testgraphs.Graphs {
		for _, alg := range cpuAlgorithms {
			for _, parents := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s-%s-%d/parents=%t", g.Name, alg.Name, alg.Variant, alg.TileEdge, parents)
				t.Run(name, func(t *testing.T) { runTestGraph(t, b, &g, alg, parents) })
			}
		}
	}
}

func runTestGraph(t *testing.T, b *Backend, g *testgraphs.Graph, alg backend.Algorithm, parents bool) {
	req, err := requestFor(g.EdgeList(), alg, g.Sources, parents)
	if alg.Name == backend.AlgorithmDijkstra && g.Negative() {
		if !errors.Is(err, shortest.ErrNegativeWeight) {
			t.Fatalf("negative weights: %v, want ErrNegativeWeight", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	var progress progressRecorder
	req.Progress = progress.report
	trees, err := collect(context.Background(), t, b, req)
	if !shortesttest.CheckRun(t, g, err, trees, g.NegativeCycle || (g.UnreachableCycle && allPairsCycleCheck(alg))) {
		return
	}
	if err := progress.check(&req); err != nil {
		t.Error(err)
	}
}

// allPairsCycleCheck reports whether alg looks for negative cycles over the
// whole graph, not only where the sources reach: Johnson's potentials and
// Floyd-Warshall's matrix.
func allPairsCycleCheck(alg backend.Algorithm) bool {
	return alg.Name == backend.AlgorithmJohnson || alg.Name == backend.AlgorithmFloydWarshall
}

// TestSearchesOnTestGraphs runs the single-source functions themselves.
func TestSearchesOnTestGraphs(t *testing.T) {
	ctx := context.Background()
	for _, g := range testgraphs.Graphs {
		csr := g.CSR()
		for i, s := range g.Sources {
			bf, err := shortest.BellmanFord(ctx, csr, s, true)
			var cycle *shortest.NegativeCycleError
			if g.NegativeCycle != errors.As(err, &cycle) || (err != nil && !g.NegativeCycle) {
				t.Errorf("%s: bellman-ford from %d: %v", g.Name, s, err)
			}
			if err == nil {
				if err := g.Check(i, bf.Dist, bf.Parent); err != nil {
					t.Errorf("bellman-ford: %v", err)
				}
			}
			if g.Negative() {
				continue
			}
			d, err := shortest.Dijkstra(ctx, csr, s, true)
			if err != nil {
				t.Fatalf("%s: dijkstra from %d: %v", g.Name, s, err)
			}
			if err := g.Check(i, d.Dist, d.Parent); err != nil {
				t.Errorf("dijkstra: %v", err)
			}
		}
	}
}
