package resultfiles

import (
	"fmt"
	"sort"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
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
//
// The shape of the result (sources, targets, cutoff, columns) is the
// run's results.Shape, the one a backend answered: blocks are narrowed to
// its targets (column j of row i is the j-th target of that row, vertex j
// when every vertex is a target). ResultShape adds what only a table has:
// the vertex count and the layout. Per-source targets (a pair list) need
// the long layout.
type ResultShape struct {
	// Shape is the result: Sources in output order, Targets or
	// SourceTargets (nil: every vertex in id order), MaxDistance (unless
	// results.NoCutoff, the long layout omits the rows of cells farther
	// away and of unreachable ones, the wide one leaves their list entries
	// null), and Columns (a parent column when it holds results.Parent).
	// Its CutoffCells is ignored: the layout decides (takesSparse).
	results.Shape
	// Width is the vertex count: sources and targets lie in 0..Width-1.
	Width int
	// Layout is Long or Wide.
	Layout Layout
	// Original, when set, gives every vertex's id in the input (a run
	// with compute.ids: original): the long layout then ends with
	// source_original_id and vertex_original_id, the wide one with
	// source_original_id, so that the table speaks the request's ids
	// without a join through the vertices table.
	Original *graph.Vertices
	// WithOriginal asks for those columns; with a nil Original they hold
	// the dense ids, which are then the input's.
	WithOriginal bool
	// Metric names the column of the results.Metric cells, when the shape
	// holds them.
	Metric MetricColumn
}

// metrics lists the shape's metric columns: its Metric when it holds
// one.
func (s *ResultShape) metrics() []MetricColumn {
	if !s.Wants(results.Metric) {
		return nil
	}
	return []MetricColumn{s.Metric}
}

// targetCount is the number of columns written per source, in a shape
// without SourceTargets, where every row is as wide as the first.
func (s *ResultShape) targetCount() int { return s.RowWidth(0, s.Width) }

// rowCount is the number of columns of row i.
func (s *ResultShape) rowCount(i int) int { return s.RowWidth(i, s.Width) }

// takesSparse reports whether the shape's blocks may be sparse
// (results.Rows.Vertices): a long table of every vertex with a cutoff,
// which writes only the cells within it anyway.
func (s *ResultShape) takesSparse() bool {
	return s.HasCutoff() && s.Targets == nil && s.SourceTargets == nil && s.Layout == Long
}

// check validates the shape.
func (s *ResultShape) check() error {
	switch {
	case s.Width <= 0:
		return fmt.Errorf("tables: result over %d vertices", s.Width)
	case s.Layout != Long && s.Layout != Wide:
		return fmt.Errorf("tables: unknown layout %d", s.Layout)
	case s.MaxDistance < 0 && s.MaxDistance != results.NoCutoff:
		return fmt.Errorf("tables: negative cutoff %d", s.MaxDistance)
	case s.Wants(results.Metric) && s.Metric.Name == "":
		return fmt.Errorf("tables: a metric column needs a name")
	}
	for _, v := range s.Sources {
		if v < 0 || int(v) >= s.Width {
			return fmt.Errorf("tables: source %d outside 0..%d", v, s.Width-1)
		}
	}
	if err := s.checkTargets(s.Targets); err != nil {
		return err
	}
	if s.SourceTargets == nil {
		return nil
	}
	switch {
	case s.Targets != nil:
		return fmt.Errorf("tables: a result with both targets and per-source targets")
	case s.Layout != Long:
		return fmt.Errorf("tables: per-source targets (a pair list) need the long layout")
	case len(s.SourceTargets) != len(s.Sources):
		return fmt.Errorf("tables: %d target lists for %d sources", len(s.SourceTargets), len(s.Sources))
	}
	for _, ts := range s.SourceTargets {
		if err := s.checkTargets(ts); err != nil {
			return err
		}
	}
	return nil
}

func (s *ResultShape) checkTargets(targets []int32) error {
	for _, v := range targets {
		if v < 0 || int(v) >= s.Width {
			return fmt.Errorf("tables: target %d outside 0..%d", v, s.Width-1)
		}
	}
	return nil
}

// partition is where parts and row groups start: in cells (source index x
// targetCount + target index, or the cumulative target counts of a pair
// list) for the long layout, in source indices for the wide one.
type partition struct {
	total      int64 // cells (long) or sources (wide)
	partUnits  int64 // per part file
	groupUnits int64 // per row group / record batch
	// width is the cells per source of a long layout without per-source
	// targets; starts, with them, holds where each source's cells start
	// (len(Sources)+1 entries).
	width  int64
	starts []int64
}

func newPartition(s *ResultShape, partRows int64, batchRows int) partition {
	if s.SourceTargets != nil {
		starts := make([]int64, len(s.SourceTargets)+1)
		for i, ts := range s.SourceTargets {
			starts[i+1] = starts[i] + int64(len(ts))
		}
		return partition{total: starts[len(starts)-1], partUnits: partRows, groupUnits: int64(batchRows), starts: starts}
	}
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
	return partition{total: int64(len(s.Sources)) * t, partUnits: partRows, groupUnits: int64(batchRows), width: t}
}

// rowStart is the first cell of source index i in the long layout.
func (p partition) rowStart(i int) int64 {
	if p.starts != nil {
		return p.starts[i]
	}
	return int64(i) * p.width
}

// rowAt returns the source index whose cells hold cell c of the long
// layout and c's column in that row. O(log sources) for a pair list.
func (p partition) rowAt(c int64) (i, j int) {
	if p.starts != nil {
		// The last start at or before c: empty rows share their start with
		// the next row and are skipped.
		i = sort.Search(len(p.starts)-1, func(k int) bool { return p.starts[k+1] > c })
		return i, int(c - p.starts[i])
	}
	return int(c / p.width), int(c % p.width)
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

// checkBlock is the block check every consumer of the shape runs, with
// parents the table ignores allowed: a table without the parent column may
// be fed blocks that have them. Blocks are narrowed to the shape's
// targets.
func (s *ResultShape) checkBlock(rows *results.Rows) error {
	if rows.Sparse() && !s.takesSparse() {
		return fmt.Errorf("tables: a sparse block at row %d for a table without a cutoff over every vertex in the long layout", rows.First)
	}
	want := s.Shape
	want.CutoffCells = s.takesSparse()
	want.Columns = want.Columns.With(results.Parent, rows.Has(results.Parent))
	if err := want.Check(rows, s.Width); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	return nil
}
