package input

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/memlimit"
	"github.com/pathflow/pathflow/pipeline/stageerr"
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

// availableMemory is memlimit.Available, replaced by tests.
var availableMemory = memlimit.Available

// CheckMemory returns a *NotEnoughMemoryError when a run of footprint f
// on n vertices and m arcs (read already unless unread says otherwise)
// needs more than this machine has left, else nil. graph names the input
// in the message. A zero footprint checks nothing.
func CheckMemory(f Footprint, graph string, n, m int64, unread bool) error {
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
	return &stageerr.NotEnoughMemoryError{Graph: fmt.Sprintf("%s (%d vertices, %d arcs)", graph, n, m), Need: need, Limit: l}
}
