package compute

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// chainRequests returns the path requests of a file on the chain 0 -> 1
// -> 2 -> 3 (weight 1 each) whose rows are 2->3, 0->3, 2->2, 1->3, 0->1,
// grouped by source as newPathPairsRun groups them, and the chain.
func chainRequests() (*pairList, *graph.EdgeList) {
	e := graph.NewEdgeList(4, 3)
	e.Src, e.Dst, e.Weight = []int32{0, 1, 2}, []int32{1, 2, 3}, []int32{1, 1, 1}
	list := &pairList{source: []int32{2, 0, 2, 1, 0}, target: []int32{3, 3, 2, 3, 1}}
	list.group()
	searchInFileOrder(list)
	return list, e
}

// chainRow is the block of source's whole row of distances on the chain.
func chainRow(list *pairList, source int32) *results.Rows {
	k := slices.Index(list.sources, source)
	dist := make([]int64, 4)
	for v := range dist {
		dist[v] = int64(v - int(source))
		if v < int(source) {
			dist[v] = paths.Unreachable
		}
	}
	return &results.Rows{First: k, Sources: []int32{source}, Width: 4, Dist64: dist}
}

// TestSearchInFileOrder checks that the sources of path requests are
// searched in the order of their first rows, each with its targets and
// rows.
func TestSearchInFileOrder(t *testing.T) {
	list, _ := chainRequests()
	if !slices.Equal(list.sources, []int32{2, 0, 1}) {
		t.Fatalf("sources %v, want [2 0 1] (first rows 0, 1, 3)", list.sources)
	}
	wantRows := [][]int32{{0, 2}, {1, 4}, {3}}
	wantTargets := [][]int32{{3, 2}, {3, 1}, {3}}
	for k := range list.sources {
		if !slices.Equal(list.rows[k], wantRows[k]) || !slices.Equal(list.targets[k], wantTargets[k]) {
			t.Errorf("source %d: rows %v, targets %v; want %v, %v", list.sources[k], list.rows[k], list.targets[k], wantRows[k], wantTargets[k])
		}
	}
}

// TestPathAnswersReadyWaitsForTheSource checks that the writer of a path
// request run reads a row only once its source is answered, whatever the
// order the blocks come in, with the path read off its distances; and
// that a stop ends the waiting and the searches with its error.
func TestPathAnswersReadyWaitsForTheSource(t *testing.T) {
	list, e := chainRequests()
	answers, err := newPathAnswers(list, nil, e, graph.BuildCSR(e))
	if err != nil {
		t.Fatal(err)
	}
	readied := make(chan int, list.len())
	go func() {
		for i := range list.len() {
			if answers.ready(i) != nil {
				break
			}
			readied <- i
		}
		close(readied)
	}()
	expectNone := func(when string) {
		select {
		case i, ok := <-readied:
			if ok {
				t.Fatalf("%s: row %d is ready", when, i)
			}
		case <-time.After(20 * time.Millisecond):
		}
	}
	expectNone("before any block")
	if err := answers.Put(chainRow(list, 0)); err != nil { // rows 1 and 4: row 0 still waits
		t.Fatal(err)
	}
	expectNone("with source 0 answered")
	if err := answers.Put(chainRow(list, 2)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []int{0, 1, 2} {
		if i := <-readied; i != want {
			t.Fatalf("row %d ready, want %d", i, want)
		}
	}
	expectNone("with row 3's source unanswered")
	if got := answers.rows[1]; got.Cost != 3 || !slices.Equal(got.Vertices, []int32{0, 1, 2, 3}) {
		t.Errorf("row 1: %+v, want 0 -> 3 through every vertex at cost 3", got)
	}
	stop := errors.New("the disk is full")
	answers.stop(stop)
	if _, open := <-readied; open {
		t.Error("a row is ready after the stop")
	}
	if err := answers.Put(chainRow(list, 1)); !errors.Is(err, stop) {
		t.Errorf("Put after the stop: %v, want the stop's error", err)
	}
	if err := answers.Close(); err == nil {
		t.Error("Close with a source unanswered: no error")
	}
}
