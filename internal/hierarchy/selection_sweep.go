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
// It holds one goroutine's state, 68 bytes per selected vertex; in a
// hierarchy WithMetricKeys made (and a selection of it) it sweeps keys.
type SelectionSweep struct {
	h     *Hierarchy
	sel   *Selection
	p     *phastLanes
	count int
}

// NewSelectionSweep returns a sweep's state over sel, a selection of h
// (h.Select), O(selected vertices).
func (h *Hierarchy) NewSelectionSweep(sel *Selection) *SelectionSweep {
	return &SelectionSweep{h: h, sel: sel, p: newPhastLanes(len(sel.Vertices))}
}

// Run sweeps for sources (original ids, at most TreeLanes of them), whose
// distances Distance then reads. O(search spaces + selected vertices and
// arcs).
func (w *SelectionSweep) Run(sources []int32) error {
	if len(sources) > lanes {
		return fmt.Errorf("hierarchy: a sweep serves at most %d sources, got %d", lanes, len(sources))
	}
	h, p := w.h, w.p
	pool := h.pool()
	s := pool.get()
	defer pool.put(s)
	p.overflow = false
	for k, src := range sources {
		if err := h.checkVertex(src); err != nil {
			return err
		}
		s.run(h, true, h.Rank[src], false)
		p.overflow = p.overflow || s.overflow
		for _, v := range s.settled {
			if at := w.sel.position[v]; at >= 0 {
				p.seed(at, k, s.dist[v])
			}
		}
	}
	p.sweep(&w.sel.Down, w.sel.downKeys)
	w.count = len(sources)
	return checkKeys(p.overflow)
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
	if d := w.p.d[at][i]; d < infinity {
		return d
	}
	return paths.Unreachable
}
