package generate_test

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/generate"
)

func ExampleGrid() {
	g, err := generate.Grid(512, 1, 1000, 42)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.N, "vertices,", g.M(), "arcs")
	// Output: 262144 vertices, 1046528 arcs
}

func ExampleRandomDegree() {
	g, err := generate.RandomDegree(1000, 7, 1, 100, 42)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.N, "vertices,", g.M(), "arcs")
	// Output: 1000 vertices, 7000 arcs
}

func ExampleRoad() {
	g, coords, err := generate.Road(512, 42)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.N, "vertices,", len(coords.X), "coordinates")
	fmt.Printf("%.1f arcs per vertex\n", float64(g.M())/float64(g.N))
	// Output:
	// 262144 vertices, 262144 coordinates
	// 2.5 arcs per vertex
}
