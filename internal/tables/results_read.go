package tables

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

// partName matches the part files a ResultWriter writes.
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
func ReadResults(dir string, opts ...Option) (*Results, error) {
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

// ScanResults reads the parts of a result directory in order and calls fn
// with each tree as soon as its last row is read; fn owns the tree. It
// returns the parts' schema metadata and whether they have parents. A tree
// starts at every row with vertex 0 and must continue with vertices 1, 2, ...
// and the same source; a null distance reads back as paths.Unreachable and a
// null parent as paths.NoParent. Every part must have the same schema.
func ScanResults(dir string, fn func(t *paths.Tree) error, opts ...Option) (meta map[string]string, hasParents bool, err error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, false, err
	}
	parts, err := ResultParts(dir)
	if err != nil {
		return nil, false, err
	}
	s := &resultScan{cfg: cfg, fn: fn}
	for _, part := range parts {
		if err := s.part(part); err != nil {
			return nil, false, err
		}
	}
	if err := s.emit(); err != nil {
		return nil, false, fmt.Errorf("%w (at the end of %s)", err, dir)
	}
	schema := s.schema
	return userMeta(schema), schema.HasField(ColParent), nil
}

// resultScan reassembles trees from the rows of consecutive parts.
type resultScan struct {
	cfg    config
	fn     func(*paths.Tree) error
	schema *arrow.Schema
	cur    *paths.Tree // the tree being read, continued across batches and parts
	n      int         // the vertex count of every tree, from the first one
}

// emit checks and hands over the current tree, if any.
func (s *resultScan) emit() error {
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

// part reads one part file.
func (s *resultScan) part(path string) (err error) {
	defer recoverInto(&err, path)
	tr, err := openTable(path, s.cfg)
	if err != nil {
		return err
	}
	defer tr.Close()
	if s.schema == nil {
		s.schema = tr.schema
	} else if !s.schema.Equal(tr.schema) {
		return fmt.Errorf("tables: %s: schema differs from the first part's", path)
	}
	idx, err := columns(tr.schema, ResultSchema(true, nil).Fields(), ColParent)
	if err != nil {
		return fmt.Errorf("%w (in %s)", err, path)
	}
	withParents := idx[3] >= 0
	return tr.scan(func(rec arrow.RecordBatch) error {
		if err := noNulls(rec, idx[0], idx[1]); err != nil {
			return err
		}
		src := rec.Column(idx[0]).(*array.Int32).Int32Values()
		vtx := rec.Column(idx[1]).(*array.Int32).Int32Values()
		distCol := rec.Column(idx[2]).(*array.Int64)
		dist := distCol.Int64Values()
		var (
			parCol *array.Int32
			par    []int32
		)
		if withParents {
			parCol = rec.Column(idx[3]).(*array.Int32)
			par = parCol.Int32Values()
		}
		for i := range src {
			if vtx[i] == 0 {
				if err := s.emit(); err != nil {
					return err
				}
				s.cur = &paths.Tree{Source: src[i]}
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
				return fmt.Errorf("tables: the first row has vertex %d, want 0", vtx[i])
			case src[i] != t.Source || int(vtx[i]) != len(t.Dist):
				return fmt.Errorf("tables: row (source %d, vertex %d) follows (source %d, vertex %d)",
					src[i], vtx[i], t.Source, len(t.Dist)-1)
			}
			d := paths.Unreachable
			if distCol.IsValid(i) {
				d = dist[i]
			}
			t.Dist = append(t.Dist, d)
			if withParents {
				p := paths.NoParent
				if parCol.IsValid(i) {
					p = par[i]
				}
				t.Parent = append(t.Parent, p)
			}
		}
		return nil
	})
}
