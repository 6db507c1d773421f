package graphtest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/graph"
)

func seeds(t *testing.T) []uint64 {
	fresh := uint64(time.Now().UnixNano())
	t.Logf("seeds: 1 and %d", fresh)
	return []uint64{1, fresh}
}

// compare reports the first vertex whose distance differs from want's.
func compare(got, want []int64) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d distances, want %d", len(got), len(want))
	}
	for v := range want {
		if got[v] != want[v] {
			return fmt.Errorf("dist[%d] = %d, want %d", v, got[v], want[v])
		}
	}
	return nil
}

func TestReferencesAgree(t *testing.T) {
	for _, seed := range seeds(t) {
		r := rand.New(rand.NewPCG(seed, 7))
		for _, n := range []int32{1, 2, 9, 40} {
			e := RandomGraph(r, n, int(n)*3, 0, 20, 0)
			want, neg := FloydWarshall(e)
			if neg != -1 {
				t.Fatalf("seed %d n %d: negative cycle at %d in a non-negative graph", seed, n, neg)
			}
			g := graph.BuildCSR(e)
			row := MatrixRows(n, want)
			for s := range n {
				if err := compare(Dijkstra(g, s), row(s)); err != nil {
					t.Fatalf("seed %d n %d Dijkstra: %v", seed, n, err)
				}
				bf, ok := BellmanFord(g, s)
				if !ok {
					t.Fatalf("seed %d n %d: Bellman-Ford found a negative cycle", seed, n)
				}
				if err := compare(bf, row(s)); err != nil {
					t.Fatalf("seed %d n %d Bellman-Ford: %v", seed, n, err)
				}
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
		want, _ := FloydWarshall(e)
		bf, ok := BellmanFord(graph.BuildCSR(e), 3)
		if !ok || !slices.Equal(bf, MatrixRows(30, want)(3)) {
			t.Fatalf("seed %d: Bellman-Ford disagrees with Floyd-Warshall on negative weights", seed)
		}
	}
}

func TestNegativeCycles(t *testing.T) {
	e := graph.NewEdgeList(4, 4)
	e.Add(0, 1, 2)
	e.Add(1, 2, -3)
	e.Add(2, 1, 1)
	e.Add(2, 3, 1)
	if _, neg := FloydWarshall(e); neg != 1 && neg != 2 {
		t.Fatalf("negative vertex %d, want 1 or 2", neg)
	}
	if _, ok := BellmanFord(graph.BuildCSR(e), 0); ok {
		t.Fatal("Bellman-Ford missed the negative cycle")
	}
	if _, ok := BellmanFord(graph.BuildCSR(e), 3); !ok {
		t.Fatal("Bellman-Ford from a vertex that reaches no cycle failed")
	}
}
