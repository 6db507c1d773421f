package resultfiles

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
)

// Results is a whole result directory in memory.
type Results struct {
	// Meta is the schema metadata of the parts.
	Meta map[string]string
	// HasParents says whether the parts have the parent column; when false
	// every tree's Parent is nil.
	HasParents bool
	// Trees are the trees in the order they were written.
	Trees []*paths.Tree
}

// partName matches the part files a ResultSink writes.
var partName = regexp.MustCompile(`^part-[0-9]{5,}\.(parquet|arrow)$`)

// ResultParts lists the part files of a result directory in order.
func ResultParts(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	var parts []string
	for _, e := range entries {
		if e.Type().IsRegular() && partName.MatchString(e.Name()) {
			parts = append(parts, e.Name())
		}
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("tables: %s holds no part files", dir)
	}
	// Names sort numerically while they have the same number of digits;
	// sort by length first in case a run wrote more than 10^5 parts.
	slices.SortFunc(parts, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	for i := range parts {
		parts[i] = filepath.Join(dir, parts[i])
	}
	return parts, nil
}

// ReadResults reads a whole result directory. Memory is that of every tree
// at once; use ScanResults for large results.
func ReadResults(dir string, opts ...tables.Option) (*Results, error) {
	r := &Results{}
	var err error
	r.Meta, r.HasParents, err = ScanResults(dir, func(t *paths.Tree) error {
		r.Trees = append(r.Trees, t)
		return nil
	}, opts...)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// ScanResults reads the parts of a long-layout result directory holding
// every vertex of every source (no targets, no cutoff) and calls fn with
// each tree as soon as its last row is read; fn owns the tree. It returns
// the parts' schema metadata and whether they have parents. A tree starts
// at every row with vertex 0 and must continue with vertices 1, 2, ... and
// the same source; a null distance reads back as paths.Unreachable and a
// null parent as paths.NoParent. Every part must have the same schema.
// ScanRows reads other long-layout results.
func ScanResults(dir string, fn func(t *paths.Tree) error, opts ...tables.Option) (meta map[string]string, hasParents bool, err error) {
	s := &treeScan{fn: fn}
	meta, hasParents, err = ScanRows(dir, s.rows, opts...)
	if err != nil {
		return nil, false, err
	}
	if err := s.emit(); err != nil {
		return nil, false, fmt.Errorf("%w (at the end of %s)", err, dir)
	}
	return meta, hasParents, nil
}

// ResultRows is a batch of long-layout rows, column by column: a null
// distance reads as paths.Unreachable, a null parent as paths.NoParent, and
// Parent is nil when the table has no parent column.
type ResultRows struct {
	Source, Vertex []int32
	Distance       []int64
	Parent         []int32

	dist []int64 // reused for Distance when it has nulls
	par  []int32 // reused for Parent when it has nulls
}

// Len is the number of rows.
func (r *ResultRows) Len() int { return len(r.Source) }

// ScanRows reads the parts of a long-layout result directory in order and
// calls fn with their rows, a record batch at a time, whichever (source,
// vertex) pairs they hold. The slices are valid only until fn returns. It
// returns the parts' schema metadata and whether they have parents; every
// part must have the same schema.
func ScanRows(dir string, fn func(rows *ResultRows) error, opts ...tables.Option) (meta map[string]string, hasParents bool, err error) {
	cfg, err := tables.NewConfig(opts)
	if err != nil {
		return nil, false, err
	}
	parts, err := ResultParts(dir)
	if err != nil {
		return nil, false, err
	}
	s := &rowScan{cfg: cfg, fn: fn}
	for _, part := range parts {
		if err := s.part(part); err != nil {
			return nil, false, err
		}
	}
	return tables.UserMeta(s.schema), s.schema.HasField(ColParent), nil
}

// rowScan reads the parts of one result directory.
type rowScan struct {
	cfg    tables.Config
	fn     func(*ResultRows) error
	schema *arrow.Schema // the first part's
	rows   ResultRows
}

// part reads one part file.
func (s *rowScan) part(path string) (err error) {
	defer tables.RecoverInto(&err, path)
	tr, err := tables.OpenTable(path, s.cfg)
	if err != nil {
		return err
	}
	defer tr.Close()
	if s.schema == nil {
		s.schema = tr.Schema()
	} else if !s.schema.Equal(tr.Schema()) {
		return fmt.Errorf("tables: %s: schema differs from the first part's", path)
	}
	idx, err := tables.ColumnIndices(tr.Schema(), ResultSchema(true, nil).Fields(), ColParent)
	if err != nil {
		return fmt.Errorf("%w (in %s)", err, path)
	}
	return tr.Scan(func(rec arrow.RecordBatch) error {
		if err := tables.NoNulls(rec, idx[0], idx[1]); err != nil {
			return err
		}
		r := &s.rows
		r.Source = rec.Column(idx[0]).(*array.Int32).Int32Values()
		r.Vertex = rec.Column(idx[1]).(*array.Int32).Int32Values()
		dist := rec.Column(idx[2]).(*array.Int64)
		r.Distance = nullsAs(dist.Int64Values(), dist, paths.Unreachable, &r.dist)
		r.Parent = nil
		if idx[3] >= 0 {
			par := rec.Column(idx[3]).(*array.Int32)
			r.Parent = nullsAs(par.Int32Values(), par, paths.NoParent, &r.par)
		}
		return s.fn(r)
	})
}

// nullsAs returns the values of col with its nulls replaced by null: vals
// itself when there are none, else a copy in *buf.
func nullsAs[T int32 | int64](vals []T, col arrow.Array, null T, buf *[]T) []T {
	if col.NullN() == 0 {
		return vals
	}
	out := append((*buf)[:0], vals...)
	for i := range out {
		if col.IsNull(i) {
			out[i] = null
		}
	}
	*buf = out
	return out
}

// treeScan reassembles trees from the rows of consecutive batches.
type treeScan struct {
	fn  func(*paths.Tree) error
	cur *paths.Tree // the tree being read, continued across batches and parts
	n   int         // the vertex count of every tree, from the first one
}

// emit checks and hands over the current tree, if any.
func (s *treeScan) emit() error {
	t := s.cur
	if t == nil {
		return nil
	}
	s.cur = nil
	if s.n == 0 {
		s.n = len(t.Dist)
	}
	switch {
	case len(t.Dist) != s.n:
		return fmt.Errorf("tables: tree from %d has %d vertices, the first tree %d", t.Source, len(t.Dist), s.n)
	case int(t.Source) >= len(t.Dist) || t.Source < 0:
		return fmt.Errorf("tables: tree source %d outside 0..%d", t.Source, len(t.Dist)-1)
	}
	return s.fn(t)
}

// rows appends a batch of rows to the trees.
func (s *treeScan) rows(r *ResultRows) error {
	withParents := r.Parent != nil
	for i, src := range r.Source {
		v := r.Vertex[i]
		if v == 0 {
			if err := s.emit(); err != nil {
				return err
			}
			s.cur = &paths.Tree{Source: src}
			if s.n > 0 {
				s.cur.Dist = make([]int64, 0, s.n)
				if withParents {
					s.cur.Parent = make([]int32, 0, s.n)
				}
			}
		}
		t := s.cur
		switch {
		case t == nil:
			return fmt.Errorf("tables: the first row has vertex %d, want 0", v)
		case src != t.Source || int(v) != len(t.Dist):
			return fmt.Errorf("tables: row (source %d, vertex %d) follows (source %d, vertex %d)",
				src, v, t.Source, len(t.Dist)-1)
		}
		t.Dist = append(t.Dist, r.Distance[i])
		if withParents {
			t.Parent = append(t.Parent, r.Parent[i])
		}
	}
	return nil
}
