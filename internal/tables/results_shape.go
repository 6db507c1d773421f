package tables

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
)

// Layout is the shape of a distances table.
type Layout int

const (
	// Long has one row per (source, target): source, vertex, distance and
	// parent columns.
	Long Layout = iota
	// Wide has one row per source: the distances (and parents) to the
	// targets as list columns, in target order, so an all-pairs result of n
	// vertices is n rows that numpy.stack turns into a matrix.
	Wide
)

// ParseLayout parses "long" or "wide".
func ParseLayout(s string) (Layout, error) {
	switch s {
	case "long":
		return Long, nil
	case "wide":
		return Wide, nil
	}
	return 0, fmt.Errorf("tables: unknown layout %q (want long or wide)", s)
}

// String returns "long" or "wide".
func (l Layout) String() string {
	if l == Wide {
		return "wide"
	}
	return "long"
}

// ResultShape says which rows and columns of a run's result a distances
// table holds. Part files and row groups are cut at fixed counts of
// candidate cells (source x target pairs before the cutoff), so the same
// shape gives the same files whatever the number of workers or the sizes
// of the blocks a backend hands over.
type ResultShape struct {
	// Sources are the rows' sources in output order (Request.Sources).
	Sources []int32
	// Width is the vertex count: the length of every row a backend hands
	// over.
	Width int
	// Targets are the vertices written for every source, in this order; nil
	// means every vertex in id order.
	Targets []int32
	// MaxDistance, unless backend.NoCutoff, drops the cells farther away
	// (and unreachable ones): the long layout omits their rows, the wide one
	// leaves their list entries null.
	MaxDistance int64
	// Parents adds the parent column.
	Parents bool
	// Layout is Long or Wide.
	Layout Layout
}

// targetCount is the number of columns written per source.
func (s *ResultShape) targetCount() int {
	if s.Targets != nil {
		return len(s.Targets)
	}
	return s.Width
}

// hasCutoff reports whether cells beyond MaxDistance are dropped.
func (s *ResultShape) hasCutoff() bool { return s.MaxDistance != backend.NoCutoff }

// check validates the shape.
func (s *ResultShape) check() error {
	switch {
	case s.Width <= 0:
		return fmt.Errorf("tables: result over %d vertices", s.Width)
	case s.Layout != Long && s.Layout != Wide:
		return fmt.Errorf("tables: unknown layout %d", s.Layout)
	case s.MaxDistance < 0 && s.MaxDistance != backend.NoCutoff:
		return fmt.Errorf("tables: negative cutoff %d", s.MaxDistance)
	}
	for _, v := range s.Sources {
		if v < 0 || int(v) >= s.Width {
			return fmt.Errorf("tables: source %d outside 0..%d", v, s.Width-1)
		}
	}
	for _, v := range s.Targets {
		if v < 0 || int(v) >= s.Width {
			return fmt.Errorf("tables: target %d outside 0..%d", v, s.Width-1)
		}
	}
	return nil
}

// partition is where parts and row groups start: in cells (source index x
// targetCount + target index) for the long layout, in source indices for
// the wide one.
type partition struct {
	total      int64 // cells (long) or sources (wide)
	partUnits  int64 // per part file
	groupUnits int64 // per row group / record batch
}

func newPartition(s *ResultShape, partRows int64, batchRows int) partition {
	t := int64(s.targetCount())
	if s.Layout == Wide {
		// A wide row holds targetCount cells: cut by sources, at least one
		// per part and per row group.
		return partition{
			total:      int64(len(s.Sources)),
			partUnits:  max(1, partRows/max(t, 1)),
			groupUnits: max(1, int64(batchRows)/max(t, 1)),
		}
	}
	return partition{total: int64(len(s.Sources)) * t, partUnits: partRows, groupUnits: int64(batchRows)}
}

// parts is the number of part files: at least one, so an empty result still
// has a file holding the schema.
func (p partition) parts() int {
	return int(max(1, (p.total+p.partUnits-1)/p.partUnits))
}

// part returns the units [lo, hi) of part i.
func (p partition) part(i int) (lo, hi int64) {
	lo = int64(i) * p.partUnits
	return lo, min(lo+p.partUnits, p.total)
}
