package hierarchy_test

import (
	"context"
	"fmt"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
)

func Example() {
	e, _, err := generate.Road(64, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	g := graph.BuildCSR(e)
	h, err := hierarchy.Build(context.Background(), g, hierarchy.WithChecksum("road:seed=1,side=64"))
	if err != nil {
		fmt.Println(err)
		return
	}
	// A 2 x 3 distance table.
	table, err := h.Table([]int32{0, 100}, []int32{5, 4095, 2000}, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(table), table[0] > 0, h.GraphChecksum)
	// The same distance by a point query, with its path.
	d, path, _ := hierarchy.NewQuery(h).Path(0, 4095)
	fmt.Println(d == table[1], path[0], path[len(path)-1])
	// Output:
	// 6 true road:seed=1,side=64
	// true 0 4095
}
