//go:build cuda

package sssp_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/cpu"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// metricCell is one answered cell of a metric request: distance and
// metric (paths.Unreachable and 0 where there is no path within the
// cutoff) and parent.
type metricCell struct {
	dist, metric int64
	parent       int32
}

// metricCells runs req on run and returns its cells by (row, vertex),
// checking that every block holds the metric.
func metricCells(run func(context.Context, backend.Request, results.Sink) error, req backend.Request) (map[[2]int32]metricCell, error) {
	cells := map[[2]int32]metricCell{}
	var mu sync.Mutex
	err := run(context.Background(), req, func(rows *results.Rows) error {
		defer rows.Release()
		if err := req.CheckRows(rows); err != nil {
			return err
		}
		if !rows.Has(results.Metric) {
			return fmt.Errorf("block at row %d holds no metric", rows.First)
		}
		mu.Lock()
		defer mu.Unlock()
		d := rows.Distances()
		for i := range rows.Len() {
			lo, hi := rows.Span(i)
			targets := req.RowTargets(rows.First + i)
			for c := lo; c < hi; c++ {
				v := int32(c - lo)
				switch {
				case rows.Sparse():
					v = rows.Vertices[c]
				case targets != nil:
					v = targets[c-lo]
				}
				cell := metricCell{dist: paths.Unreachable, parent: paths.NoParent}
				w, ok := d.Within(c, req.MaxDistance)
				if !ok && req.CutoffCells {
					// Rows may or may not list the cells past the cutoff.
					continue
				}
				if ok {
					cell.dist, cell.metric = w, rows.Metric64[c]
				}
				if rows.Parent != nil && cell.dist != paths.Unreachable {
					cell.parent = rows.Parent[c]
				}
				cells[[2]int32{int32(rows.First + i), v}] = cell
			}
		}
		return nil
	})
	return cells, err
}

// metricShapes are the query shapes a metric run is checked in: whole
// rows, shared targets (a compact sweep when they reach little of the
// hierarchy), per-source lists, and a cutoff.
func metricShapes(r *rand.Rand, n int32, sources []int32) map[string]results.Shape {
	targets := make([]int32, min(n, 12))
	for i := range targets {
		targets[i] = r.Int32N(n)
	}
	// The first list holds a target at least, so that the shape has cells
	// to compare; the others may be empty.
	lists := make([][]int32, len(sources))
	for i := range lists {
		count := r.IntN(5)
		if i == 0 {
			count = 1 + r.IntN(4)
		}
		for range count {
			lists[i] = append(lists[i], r.Int32N(n))
		}
	}
	return map[string]results.Shape{
		"whole":   {},
		"targets": {Targets: targets},
		"lists":   {SourceTargets: lists},
		"cutoff":  {MaxDistance: 40, CutoffCells: true},
		// Every list empty: blocks without cells, which still hold the
		// metric's column.
		noCells: {SourceTargets: make([][]int32, len(sources))},
	}
}

// noCells is the shape of metricShapes whose every list is empty.
const noCells = "no cells"

// checkMetricAgainstCPU runs alg (ch, or a search the GPU runs as
// near-far; h, when not nil, is ch's hierarchy) with the metric on the
// GPU and on the CPU backend in every shape, with and without parents,
// and checks that both report the same cells (distance, metric and
// parent), that the pairs are the lexicographically shortest ones (want,
// by source), and that every parent closes an arc's weight and metric.
// Over arcs of weight and metric 0 the CPU's Dijkstra keeps the first arc
// that reached a vertex, where the GPU (and ch on both backends) keeps
// the keyed rule with its loops mended: a search's parents there are
// checked as tight arcs only. Repeated sources are asked once (the CPU
// backend refuses them).
func checkMetricAgainstCPU(t *testing.T, name string, alg backend.Algorithm, e *graph.EdgeList, h *hierarchy.Hierarchy, sources []int32, r *rand.Rand) {
	t.Helper()
	seen := map[int32]bool{}
	sources = slices.DeleteFunc(slices.Clone(sources), func(s int32) bool {
		twice := seen[s]
		seen[s] = true
		return twice
	})
	g := graph.BuildCSR(e)
	zeroKey := false
	for a, w := range g.Weights {
		zeroKey = zeroKey || (w == 0 && g.Metric[a] == 0)
	}
	sameParents := alg.Name == sssp.AlgorithmCH || !zeroKey
	want := map[int32][2][]int64{}
	for _, s := range sources {
		d, m := graphtest.Lexicographic(g, s)
		want[s] = [2][]int64{d, m}
	}
	lo, hi := e.WeightRange()
	p := backend.Problem{N: e.N, M: int64(e.M()), MinWeight: lo, MaxWeight: hi, Sources: len(sources), Algorithm: backend.Algorithm{Name: alg.Name}, Metric: true}
	// The CPU takes the family (sssp is Dijkstra there), not the GPU's variant.
	cpuChoice, err := cpu.Choose(p)
	if err != nil {
		t.Fatal(err)
	}
	onCPU := cpu.New(2)
	for shapeName, shape := range metricShapes(r, e.N, sources) {
		for _, parents := range []bool{false, true} {
			req, err := backendtest.Request(t, e, alg, sources, parents)
			if err != nil {
				t.Fatal(err)
			}
			req.Targets, req.SourceTargets, req.CutoffCells = shape.Targets, shape.SourceTargets, shape.CutoffCells
			if shape.MaxDistance != 0 {
				req.MaxDistance = shape.MaxDistance
			}
			req.Columns = req.Columns.With(results.Metric, true)
			req.Hierarchy = h
			got, err := metricCells(backendtest.Default().Run, req)
			if err != nil {
				t.Fatalf("%s/%s/parents %v: gpu: %v", name, shapeName, parents, err)
			}
			req.Choice = cpuChoice
			ref, err := metricCells(onCPU.Run, req)
			if err != nil {
				t.Fatalf("%s/%s/parents %v: cpu: %v", name, shapeName, parents, err)
			}
			if len(got) != len(ref) || (len(got) == 0) != (shapeName == noCells) {
				t.Fatalf("%s/%s/parents %v: %d cells on the GPU, %d on the CPU", name, shapeName, parents, len(got), len(ref))
			}
			for key, c := range got {
				row, v := key[0], key[1]
				s := sources[row]
				if other := ref[key]; c != other && (sameParents || c.dist != other.dist || c.metric != other.metric) {
					t.Fatalf("%s/%s/parents %v: %d -> %d: GPU %+v, CPU %+v", name, shapeName, parents, s, v, c, ref[key])
				}
				wd, wm := want[s][0][v], want[s][1][v]
				if req.HasCutoff() && wd != paths.Unreachable && wd > req.MaxDistance {
					wd = paths.Unreachable
				}
				if c.dist != wd || (wd != paths.Unreachable && c.metric != wm) {
					t.Fatalf("%s/%s: %d -> %d: (%d, %d), want (%d, %d)", name, shapeName, s, v, c.dist, c.metric, wd, wm)
				}
				if !parents || c.parent == paths.NoParent {
					if parents && wd != paths.Unreachable && v != s {
						t.Fatalf("%s/%s: %d -> %d: no parent", name, shapeName, s, v)
					}
					continue
				}
				u := c.parent
				if u == v {
					t.Fatalf("%s/%s: %d -> %d: the vertex is its own parent", name, shapeName, s, v)
				}
				tight := false
				for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
					if g.Targets[a] == v && want[s][0][u]+int64(g.Weights[a]) == wd && want[s][1][u]+int64(g.Metric[a]) == wm {
						tight = true
					}
				}
				if !tight {
					t.Fatalf("%s/%s: %d -> %d: parent %d closes no arc to (%d, %d)", name, shapeName, s, v, u, wd, wm)
				}
			}
		}
	}
}

// chAlgorithm is the ch run of the metric tests.
var chAlgorithm = backend.Algorithm{Name: sssp.AlgorithmCH}

// TestCHMetricMatchesCPU checks ch's metric on the GPU against the CPU
// backend and the lexicographic reference: on random graphs whose
// weights (0..3) tie often and whose metrics (1..30) break the ties, with
// the hierarchy handed in and built by the run; on a road-like graph,
// whose few targets make the sweeps compact; on graphs with arcs of
// weight and metric 0; and on rome99 with a second
// arc value made for the test.
func TestCHMetricMatchesCPU(t *testing.T) {
	seed := backendtest.FreshSeed(t)
	r := rand.New(rand.NewPCG(seed, 31))
	for i := range 4 {
		// The last graph's metrics (0..2) leave arcs of weight and metric
		// 0, whose parents are found on the host.
		lo, hi := int32(1), int32(30)
		if i == 3 {
			lo, hi = 0, 2
		}
		e := graphtest.WithMetric(r, graphtest.RandomGraph(r, 150, 700, 0, 3, 0), lo, hi)
		var h *hierarchy.Hierarchy
		if i == 0 {
			var err error
			if h, err = hierarchy.Build(context.Background(), graph.BuildCSR(e)); err != nil {
				t.Fatal(err)
			}
		}
		checkMetricAgainstCPU(t, fmt.Sprintf("random %d/seed %d", i, seed), chAlgorithm, e, h, []int32{0, 3, 7, 50, 149, 77, 12}, r)
	}
	road, _, err := generate.Road(40, seed)
	if err != nil {
		t.Fatal(err)
	}
	graphtest.WithMetric(r, road, 1, 50)
	checkMetricAgainstCPU(t, "road 40", chAlgorithm, road, nil, ssspPickSources(r, road.N, 40), r)
	if e, ok := romeWithMetric(t); ok {
		checkMetricAgainstCPU(t, "rome99", chAlgorithm, e, nil, []int32{0, 1000, 2500, 3352}, r)
	}
}

// TestCHMetricRefusals: a graph without a metric and a metric asked of
// a variant that does not sum one (Bellman-Ford) are refused as
// unsupported.
func TestCHMetricRefusals(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	e := graphtest.RandomGraph(r, 40, 160, 1, 9, 0)
	req, err := backendtest.Request(t, e, backend.Algorithm{Name: sssp.AlgorithmCH}, []int32{0, 1}, false)
	if err != nil {
		t.Fatal(err)
	}
	req.Columns = req.Columns.With(results.Metric, true)
	if _, err := metricCells(backendtest.Default().Run, req); !errors.Is(err, backend.ErrUnsupported) {
		t.Errorf("a graph without a metric: %v, want unsupported", err)
	}
	graphtest.WithMetric(r, e, 0, 3)
	req, err = backendtest.Request(t, e, backend.Algorithm{Name: sssp.AlgorithmCH}, []int32{0, 1}, true)
	if err != nil {
		t.Fatal(err)
	}
	req.Columns = req.Columns.With(results.Metric, true)
	if _, err := metricCells(backendtest.Default().Run, req); err != nil {
		t.Errorf("ch with a metric: %v", err)
	}
	req.Choice = backend.Choice{Algorithm: backend.Algorithm{Name: sssp.SSSPFamily, Variant: sssp.VariantBFFlags}}
	if _, err := metricCells(backendtest.Default().Run, req); !errors.Is(err, backend.ErrUnsupported) {
		t.Errorf("bellman-ford with a metric: %v, want unsupported", err)
	}
}

// romeWithMetric reads rome99 from the dataset mirror with a second value
// made for the tests: the weight's last digit reversed, so that paths
// tying on the weight differ in it. False, said in the log, when the
// mirror lacks it.
func romeWithMetric(t *testing.T) (*graph.EdgeList, bool) {
	t.Helper()
	path, ok := datasets.MirrorFile("rome99.gr")
	if !ok {
		t.Logf("rome99.gr not in %s: skipped", datasets.MirrorDir())
		return nil, false
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := formats.ReadDIMACS(f, path)
	if err = errors.Join(err, f.Close()); err != nil {
		t.Fatal(err)
	}
	e.Metric = make([]int32, e.M())
	for i, w := range e.Weight {
		e.Metric[i] = 9 - w%10
	}
	return e, true
}
