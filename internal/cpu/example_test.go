package cpu_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/cpu"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

func Example() {
	e := graph.NewEdgeList(4, 5)
	e.Add(0, 1, 4)
	e.Add(0, 2, 1)
	e.Add(2, 1, 2)
	e.Add(1, 3, 5)
	e.Add(2, 3, 9)
	g := graph.BuildCSR(e)

	b := cpu.New(0)
	defer b.Close()
	tree, err := b.SingleSource(context.Background(), g, 0, backend.Algorithm{Name: cpu.AlgorithmAuto}, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("distance to 3:", tree.Dist[3], "path:", tree.PathTo(3))
	// Output: distance to 3: 8 path: [0 2 1 3]
}

func ExampleBackend_MultiSource() {
	e := graph.NewEdgeList(3, 3)
	e.Add(0, 1, 1)
	e.Add(1, 2, 1)
	e.Add(2, 0, 1)
	err := cpu.New(2).MultiSource(context.Background(), graph.BuildCSR(e), []int32{2, 0, 1},
		backend.Algorithm{Name: cpu.AlgorithmDijkstra}, false,
		func(t *paths.Tree) error {
			fmt.Println("from", t.Source, "distances", t.Dist)
			return nil
		})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// from 2 distances [1 2 0]
	// from 0 distances [0 1 2]
	// from 1 distances [2 0 1]
}

func ExampleBlockedFloydWarshall() {
	e := graph.NewEdgeList(3, 3)
	e.Add(0, 1, 3)
	e.Add(1, 2, -2)
	e.Add(0, 2, 2)
	m, err := cpu.BlockedFloydWarshall(context.Background(), e, 0, 0, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Distance(0, 2), m.Row(0).PathTo(2), m.Distance(2, 0) == paths.Unreachable)
	// Output: 1 [0 1 2] true
}

func ExampleNegativeCycleError() {
	e := graph.NewEdgeList(3, 3)
	e.Add(0, 1, 1)
	e.Add(1, 2, -3)
	e.Add(2, 1, 1)
	_, err := cpu.BellmanFord(context.Background(), graph.BuildCSR(e), 0, false)
	var cycle *cpu.NegativeCycleError
	if errors.As(err, &cycle) {
		fmt.Println(len(cycle.Cycle), "vertices on the cycle")
	}
	// Output: 2 vertices on the cycle
}

func ExampleChooseAlgorithm() {
	name, reason := cpu.ChooseAlgorithm(cpu.ProblemAllPairs, 100000, 400000, true)
	fmt.Println(name + ": " + reason)
	// Output: johnson: all pairs on a sparse graph (100000 vertices, 400000 arcs) with negative weights: Johnson's reweighting, then Dijkstra from every source
}
