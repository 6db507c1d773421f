package gputest

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

func TestCheckTreeCatchesParentLoop(t *testing.T) {
	// 0 -> 1 -> 2 -> 1 with zero weights: parents 2 -> 1 -> 2 loop but
	// each is an arc of the right weight.
	e := graph.NewEdgeList(3, 3)
	e.Add(0, 1, 0)
	e.Add(1, 2, 0)
	e.Add(2, 1, 0)
	g := graph.BuildCSR(e)
	tree := &paths.Tree{Source: 0, Dist: []int64{0, 0, 0}, Parent: []int32{-1, 2, 1}}
	err := CheckTree(g, tree)
	if err == nil || !strings.Contains(err.Error(), "loop") {
		t.Fatalf("CheckTree = %v, want a loop error", err)
	}
	tree.Parent[1] = 0
	if err := CheckRow(g, tree, []int64{0, 0, 0}, true); err != nil {
		t.Fatalf("CheckRow on good parents: %v", err)
	}
	if err := CheckRow(g, tree, []int64{0, 0, 1}, true); err == nil {
		t.Fatal("CheckRow missed a wrong distance")
	}
	if err := CheckRow(g, tree, []int64{0, 0, 0}, false); err == nil {
		t.Fatal("CheckRow accepted parents that were not asked for")
	}
}

// block builds a Rows block of int32 distances from reference rows, as a
// backend would, with a release that counts.
func block(req *backend.Request, first, count int, rows func(s int32) []int64, released *int) *results.Rows {
	n := int(req.Edges.N)
	b := &results.Rows{First: first, Sources: req.Sources[first : first+count], Width: n, Dist32: make([]int32, count*n)}
	for i, s := range b.Sources {
		for v, d := range rows(s) {
			b.Dist32[i*n+v] = graph.Inf32
			if d != paths.Unreachable {
				b.Dist32[i*n+v] = int32(d)
			}
		}
	}
	b.OnRelease(func(*results.Rows) { *released++ })
	return b
}

func TestCollectorChecksAndKeepsRows(t *testing.T) {
	e := graphtest.RandomGraph(rand.New(rand.NewPCG(3, 3)), 10, 30, 1, 9, 0)
	g := graph.BuildCSR(e)
	want, _ := graphtest.FloydWarshall(e)
	rows := graphtest.MatrixRows(10, want)
	req := &backend.Request{Shape: results.Shape{Sources: []int32{7, 2, 9, 0}}, Edges: e, CSR: g}
	c := NewCollector(req, true)
	c.Check = func(b *results.Rows) error { return CheckBlock(g, b, rows, false) }
	released := 0
	if err := c.Sink(block(req, 2, 2, rows, &released)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Done(); err == nil {
		t.Fatal("Done with rows missing")
	}
	if err := c.Sink(block(req, 0, 2, rows, &released)); err != nil {
		t.Fatal(err)
	}
	trees, err := c.Done()
	if err != nil || len(trees) != 4 || trees[1].Source != 2 {
		t.Fatalf("Done: %v, %d trees", err, len(trees))
	}
	if err := c.Sink(block(req, 1, 1, rows, &released)); err == nil {
		t.Fatal("a row arriving twice was accepted")
	}
	bad := block(req, 0, 1, rows, &released)
	bad.Dist32[3]++
	strict := NewCollector(req, false)
	strict.Check = c.Check
	if err := strict.Sink(bad); err == nil {
		t.Fatal("a wrong distance was accepted")
	}
	if released != 4 {
		t.Fatalf("%d blocks released, want every one of 4", released)
	}
	b := block(req, 0, 2, rows, &released)
	if RowHash(b, 0) == RowHash(b, 1) || RowHash(b, 0) != RowHash(block(req, 0, 1, rows, &released), 0) {
		t.Fatal("RowHash does not tell rows apart or differs for equal rows")
	}
}

func TestForEachStopsAtTheFirstError(t *testing.T) {
	stop := errors.New("stop")
	err := ForEach(1000, func(i int) error {
		if i == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("ForEach = %v", err)
	}
	if err := ForEach(0, func(int) error { return stop }); err != nil {
		t.Fatalf("ForEach over nothing = %v", err)
	}
}
