package gputest

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

func seeds(t *testing.T) []uint64 {
	fresh := uint64(time.Now().UnixNano())
	t.Logf("seeds: 1 and %d", fresh)
	return []uint64{1, fresh}
}

// matrixFrom packs a reference into a Matrix, as a backend would.
func matrixFrom(n int32, dist []int64) *paths.Matrix {
	m := &paths.Matrix{N: n, Dist32: make([]int32, len(dist))}
	for i, d := range dist {
		if d == paths.Unreachable {
			m.Dist32[i] = graph.Inf32
		} else {
			m.Dist32[i] = int32(d)
		}
	}
	return m
}

func TestFloydWarshallMatchesDijkstra(t *testing.T) {
	for _, seed := range seeds(t) {
		r := rand.New(rand.NewPCG(seed, 7))
		for _, n := range []int32{1, 2, 9, 40} {
			e := RandomGraph(r, n, int(n)*3, 0, 20, 0)
			want, neg := FloydWarshall(e)
			if neg != -1 {
				t.Fatalf("seed %d n %d: negative cycle at %d in a non-negative graph", seed, n, neg)
			}
			got := DijkstraMatrix(graph.BuildCSR(e))
			if err := CompareMatrix(got, want); err != nil {
				t.Fatalf("seed %d n %d: %v", seed, n, err)
			}
		}
	}
}

func TestRandomGraphShiftKeepsCyclesNonNegative(t *testing.T) {
	for _, seed := range seeds(t) {
		r := rand.New(rand.NewPCG(seed, 8))
		e := RandomGraph(r, 30, 200, 0, 10, 50)
		if !e.HasNegativeWeight() {
			t.Fatalf("seed %d: shifted weights never went negative", seed)
		}
		if _, neg := FloydWarshall(e); neg != -1 {
			t.Fatalf("seed %d: negative cycle through %d", seed, neg)
		}
	}
}

func TestFloydWarshallFindsNegativeCycle(t *testing.T) {
	e := graph.NewEdgeList(4, 4)
	e.Add(0, 1, 2)
	e.Add(1, 2, -3)
	e.Add(2, 1, 1)
	e.Add(2, 3, 1)
	if _, neg := FloydWarshall(e); neg != 1 && neg != 2 {
		t.Fatalf("negative vertex %d, want 1 or 2", neg)
	}
}

func TestCheckRowCatchesParentLoop(t *testing.T) {
	// 0 -> 1 -> 2 -> 1 with zero weights: parents 2 -> 1 -> 2 loop but
	// each is an arc of the right weight.
	e := graph.NewEdgeList(3, 3)
	e.Add(0, 1, 0)
	e.Add(1, 2, 0)
	e.Add(2, 1, 0)
	g := graph.BuildCSR(e)
	m := &paths.Matrix{N: 3, Dist32: []int32{0, 0, 0, graph.Inf32, 0, 0, graph.Inf32, 0, 0},
		Parent: []int32{-1, 2, 1, -1, -1, 1, -1, 2, -1}}
	err := CheckRow(g, m, 0)
	if err == nil || !strings.Contains(err.Error(), "loop") {
		t.Fatalf("CheckRow = %v, want a loop error", err)
	}
	m.Parent[1] = 0
	if err := CheckRows(g, m); err != nil {
		t.Fatalf("CheckRows on good parents: %v", err)
	}
}

func TestCompareFindsDifference(t *testing.T) {
	e := RandomGraph(rand.New(rand.NewPCG(3, 3)), 10, 30, 1, 9, 0)
	want, _ := FloydWarshall(e)
	m := matrixFrom(10, want)
	if err := CompareMatrix(m, want); err != nil {
		t.Fatal(err)
	}
	m.Dist32[0] = 5 // dist[0][0] is 0
	if CompareMatrix(m, want) == nil {
		t.Fatal("CompareMatrix missed a changed cell")
	}
	if SameDistances(m, matrixFrom(10, want)) == nil {
		t.Fatal("SameDistances missed a changed cell")
	}
}
