package cpu

import (
	"context"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
)

func TestTmpDebug(t *testing.T) {
	e, _ := generate.Grid(512, 1, 1000, 1)
	g := graph.BuildCSR(e)
	s := newDijkstraSearch(g.N)
	for _, src := range []int32{0, 4096, 131072, 0} {
		t0 := time.Now()
		s.tree(context.Background(), g, src, true)
		t.Log(src, time.Since(t0), len(s.heap.items))
	}
}
