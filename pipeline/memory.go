package pipeline

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/memlimit"
)

// Footprint is a lower bound of the memory a stage allocates once a
// graph's arcs are read: per vertex (offsets, vertex ids, distances and
// parents, output columns) and per arc (the compressed rows and what the
// stage builds from them), in bytes. It is measured, then rounded down,
// so a run refused for it could not have finished: with 300 million
// declared vertices compute needs at least 11 GiB whatever the arcs.
type Footprint struct {
	PerVertex, PerArc int64
}

// Footprints of the stages, from the peak resident sizes of runs on
// graphs of many vertices and few arcs and the other way round (compute
// one source: 48 bytes a vertex and 20 an arc beyond the 12 of the edge
// list; ingest: 24 and 32).
var (
	ComputeFootprint = Footprint{PerVertex: 40, PerArc: 12}
	IngestFootprint  = Footprint{PerVertex: 16, PerArc: 12}
)

// edgeListBytes is what an edge list holds per arc: source, target and
// weight as int32.
const edgeListBytes = 12

// need is the memory a run on n vertices and m arcs takes beyond the arcs
// already read.
func (f Footprint) need(n, m int64) int64 {
	return f.PerVertex*n + f.PerArc*m
}

// NotEnoughMemoryError says that a run cannot fit the memory this machine
// gives it: the graph's declared sizes need more than is left under the
// tightest limit. It is found before the large allocations, so nothing is
// half-written and the machine is not pushed into swapping or the OOM
// killer.
type NotEnoughMemoryError struct {
	// Graph names the input and its sizes.
	Graph string
	// Need is the least the run needs beyond what is already allocated,
	// in bytes.
	Need int64
	// Limit is the tightest limit and what is left under it.
	Limit memlimit.Limit
}

func (e *NotEnoughMemoryError) Error() string {
	return fmt.Sprintf("not enough memory: %s needs at least about %s more, and there is %s; run it on a machine with more memory, or fix the sizes the input declares",
		e.Graph, memlimit.GiB(e.Need), e.Limit)
}

// availableMemory is memlimit.Available, replaced by tests.
var availableMemory = memlimit.Available

// checkMemory returns a *NotEnoughMemoryError when a run of footprint f
// on n vertices and m arcs (read already unless unread says otherwise)
// needs more than this machine has left, else nil. graph names the input
// in the message. A zero footprint checks nothing.
func checkMemory(f Footprint, graph string, n, m int64, unread bool) error {
	if f == (Footprint{}) {
		return nil
	}
	need := f.need(n, m)
	if unread {
		need += edgeListBytes * m
	}
	l, ok := availableMemory()
	if !ok || need <= l.Free {
		return nil
	}
	return &NotEnoughMemoryError{Graph: fmt.Sprintf("%s (%d vertices, %d arcs)", graph, n, m), Need: need, Limit: l}
}
