package hierarchy

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/paths"
)

// SelectionSweep is PHAST restricted to a Selection, for up to TreeLanes
// sources at a time: each source's upward search seeds the selected
// vertices it settles, and one sweep over the selection's Down arcs, top
// down, leaves every selected vertex its exact distance. A table over a
// few thousand columns of a road network reads them from a selection of a
// few times as many vertices, instead of scanning a bucket per column.
// It holds one goroutine's state, 32 bytes per selected vertex (narrow
// lanes, as TreeSweep's); in a hierarchy WithMetricKeys made (and a
// selection of it) it sweeps keys, on wide lanes of 64 bytes.
type SelectionSweep struct {
	h   *Hierarchy
	sel *Selection
	// p is narrow lanes until a sweep meets a distance they cannot
	// hold, wide ones from then on (and always on metric keys).
	p     lanesState
	count int
	// narrow or wide is p's distances, the one of its width, for At to
	// read every cell of a table without a call.
	narrow [][lanes]uint32
	wide   [][lanes]int64
}

// NewSelectionSweep returns a sweep's state over sel, a selection of h
// (h.Select), O(selected vertices).
func (h *Hierarchy) NewSelectionSweep(sel *Selection) *SelectionSweep {
	return h.newSelectionSweep(sel, h.wideLanes())
}

// newSelectionSweep is NewSelectionSweep on lanes of the width asked for.
func (h *Hierarchy) newSelectionSweep(sel *Selection, wide bool) *SelectionSweep {
	w := &SelectionSweep{h: h, sel: sel, p: newLanes(len(sel.Vertices), wide)}
	w.readLanes()
	return w
}

// Run sweeps for sources (original ids, at most TreeLanes of them), whose
// distances Distance then reads. O(search spaces + selected vertices and
// arcs).
func (w *SelectionSweep) Run(sources []int32) error {
	if len(sources) > lanes {
		return fmt.Errorf("hierarchy: a sweep serves at most %d sources, got %d", lanes, len(sources))
	}
	for _, src := range sources {
		if err := w.h.checkVertex(src); err != nil {
			return err
		}
	}
	pool := w.h.pool()
	s := pool.get()
	defer pool.put(s)
	w.sweep(s, sources)
	if w.p.spilled() {
		w.p, w.narrow = nil, nil // let the narrow lanes go before the wide ones are made
		w.p = newWideLanes(len(w.sel.Vertices))
		w.sweep(s, sources)
	}
	w.count = len(sources)
	w.readLanes()
	return checkKeys(w.p.overflowed())
}

// readLanes points At at the distances of w.p, narrow or wide.
func (w *SelectionSweep) readLanes() {
	w.narrow, w.wide = nil, nil
	switch p := w.p.(type) {
	case *phastLanes[uint32]:
		w.narrow = p.d
	case *phastLanes[int64]:
		w.wide = p.d
	}
}

// sweep seeds w.p from the upward searches of sources and sweeps the
// selection.
func (w *SelectionSweep) sweep(s *upSearch, sources []int32) {
	h, p := w.h, w.p
	p.begin()
	for k, src := range sources {
		s.run(h, true, h.Rank[src], false)
		if s.overflow {
			p.markUnfit()
		}
		for _, v := range s.settled {
			if at := w.sel.position[v]; at >= 0 {
				p.seed(at, k, s.dist[v])
			}
		}
	}
	sweepAll(p, &w.sel.Down, w.sel.downKeys)
}

// Distance returns the distance from source i of the last Run to v
// (original id), or paths.Unreachable; -1 when v is not selected. O(1).
func (w *SelectionSweep) Distance(i int, v int32) int64 {
	at := w.PositionOf(v)
	if at < 0 || i >= w.count {
		return -1
	}
	return w.At(i, at)
}

// PositionOf returns the position of v (original id) in the selection, or
// -1: what At reads by, for a caller that reads the same vertices after
// every Run. O(1).
func (w *SelectionSweep) PositionOf(v int32) int32 { return w.sel.position[w.h.Rank[v]] }

// At returns the distance from source i of the last Run to the selected
// vertex at position at (PositionOf), or paths.Unreachable. O(1).
func (w *SelectionSweep) At(i int, at int32) int64 {
	if w.narrow != nil {
		if d := int64(w.narrow[at][i]); d < narrowLimit {
			return d
		}
	} else if d := w.wide[at][i]; d < infinity {
		return d
	}
	return paths.Unreachable
}
