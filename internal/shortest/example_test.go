package shortest_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/shortest"
)

func ExampleBlockedFloydWarshall() {
	e := graph.NewEdgeList(3, 3)
	e.Add(0, 1, 3)
	e.Add(1, 2, -2)
	e.Add(0, 2, 2)
	m, err := shortest.BlockedFloydWarshall(context.Background(), e, 0, 0, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Distance(0, 2), m.Row(0).To(2), m.Distance(2, 0) == paths.Unreachable)
	// Output: 1 [0 1 2] true
}

func ExampleNegativeCycleError() {
	e := graph.NewEdgeList(3, 3)
	e.Add(0, 1, 1)
	e.Add(1, 2, -3)
	e.Add(2, 1, 1)
	_, err := shortest.BellmanFord(context.Background(), graph.BuildCSR(e), 0, false)
	var cycle *shortest.NegativeCycleError
	if errors.As(err, &cycle) {
		fmt.Println(len(cycle.Cycle), "vertices on the cycle")
	}
	// Output: 2 vertices on the cycle
}
