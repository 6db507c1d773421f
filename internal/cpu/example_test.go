package cpu_test

import (
	"context"
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/cpu"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// problemOf describes a run of alg from sources on e.
func problemOf(e *graph.EdgeList, alg string, sources []int32, parents bool) backend.Problem {
	lo, hi := e.WeightRange()
	return backend.Problem{
		N: e.N, M: int64(e.M()), MinWeight: lo, MaxWeight: hi,
		Sources: len(sources), AllSources: len(sources) == int(e.N),
		Algorithm: backend.Algorithm{Name: alg},
	}
}

func Example() {
	e := graph.NewEdgeList(4, 5)
	e.Add(0, 1, 4)
	e.Add(0, 2, 1)
	e.Add(2, 1, 2)
	e.Add(1, 3, 5)
	e.Add(2, 3, 9)
	sources := []int32{0}

	choice, err := cpu.Choose(problemOf(e, backend.AlgorithmAuto, sources, true))
	if err != nil {
		fmt.Println(err)
		return
	}
	b := cpu.New(0)
	defer b.Close() // the CPU backend holds no resources: Close cannot fail
	req := backend.Request{Shape: results.Shape{Sources: sources, Columns: results.ColumnsOf(results.Parent), MaxDistance: results.NoCutoff}, Edges: e, CSR: graph.BuildCSR(e), Choice: choice}
	err = b.Run(context.Background(), req, func(rows *results.Rows) error {
		defer rows.Release()
		tree := rows.Tree(0).Copy()
		fmt.Println(choice.Algorithm.Name+":", "distance to 3:", tree.Dist[3], "path:", tree.To(3))
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output: dijkstra: distance to 3: 8 path: [0 2 1 3]
}

func ExampleBackend_Run() {
	e := graph.NewEdgeList(3, 3)
	e.Add(0, 1, 1)
	e.Add(1, 2, 1)
	e.Add(2, 0, 1)
	sources := []int32{2, 0, 1}
	choice, err := cpu.Choose(problemOf(e, backend.AlgorithmJohnson, sources, false))
	if err != nil {
		fmt.Println(err)
		return
	}
	// Blocks may arrive on several goroutines and in any order; First says
	// where each belongs.
	rows := make([][]int64, len(sources))
	req := backend.Request{Shape: results.Shape{Sources: sources, MaxDistance: results.NoCutoff}, Edges: e, CSR: graph.BuildCSR(e), Choice: choice}
	err = cpu.New(2).Run(context.Background(), req, func(block *results.Rows) error {
		defer block.Release()
		for i := range block.Len() {
			rows[block.First+i] = block.Tree(i).Copy().Dist
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, dist := range rows {
		fmt.Println("from", sources[i], "distances", dist)
	}
	// Output:
	// from 2 distances [1 2 0]
	// from 0 distances [0 1 2]
	// from 1 distances [2 0 1]
}

func ExampleChoose() {
	p := backend.Problem{N: 100000, M: 400000, MinWeight: -3, MaxWeight: 50, Sources: 100000, AllSources: true,
		Algorithm: backend.Algorithm{Name: backend.AlgorithmAuto}}
	c, err := cpu.Choose(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Algorithm.Name + ": " + c.Reason)
	// Output: johnson: all pairs on a sparse graph (100000 vertices, 400000 arcs) with negative weights: Johnson's reweighting, then Dijkstra from every source
}
