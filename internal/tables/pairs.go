package tables

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Columns of a pair list: the source-target pairs a run computes
// (compute.pairs).
const (
	ColPairSource = "source"
	ColPairTarget = "target"
)

// ScanPairs streams the pair list at path, a Parquet or Arrow IPC file
// (told from its bytes) with integer columns source and target (int32,
// int64 or unsigned), calling fn for every pair in file order with its
// 1-based row number, and returns the file's other columns, in file
// order, with their types and nulls, for an answer to carry beside its
// pairs (the caller releases them). A null source or target, a missing
// column or fn's error stops the scan; errors name the file, and the row
// where there is one. Memory is the other columns (their batches' chunks
// until the end, then one array each) and one record batch of the rest.
func ScanPairs(path string, fn func(row, source, target int64) error, opts ...Option) (others OtherColumns, err error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return OtherColumns{}, err
	}
	defer RecoverInto(&err, path)
	tr, err := OpenTable(path, cfg)
	if err != nil {
		return OtherColumns{}, err
	}
	defer tr.Close()
	si, ti := tr.schema.FieldIndices(ColPairSource), tr.schema.FieldIndices(ColPairTarget)
	if len(si) != 1 || len(ti) != 1 {
		return OtherColumns{}, fmt.Errorf("tables: %s: a pair list needs one %q and one %q column (has %v)", path, ColPairSource, ColPairTarget, fieldNames(tr.schema))
	}
	kept := newKeptChunks(tr.schema, si[0], ti[0])
	defer kept.release()
	var row int64
	for {
		rec, err := tr.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return OtherColumns{}, err
		}
		err = scanPairBatch(path, rec, si[0], ti[0], &row, fn)
		if err == nil {
			kept.add(rec)
		}
		rec.Release()
		if err != nil {
			return OtherColumns{}, err
		}
	}
	if others, err = kept.columns(cfg.Mem); err != nil {
		return OtherColumns{}, fmt.Errorf("%w (reading %s)", err, path)
	}
	return others, nil
}

// scanPairBatch calls fn for the pairs of one record batch; *row counts
// the rows before it.
func scanPairBatch(path string, rec arrow.RecordBatch, si, ti int, row *int64, fn func(row, source, target int64) error) error {
	src, err := integerColumn(path, rec.Column(si), ColPairSource)
	if err != nil {
		return err
	}
	dst, err := integerColumn(path, rec.Column(ti), ColPairTarget)
	if err != nil {
		return err
	}
	for k := range int(rec.NumRows()) {
		*row++
		s, sok := src(k)
		t, tok := dst(k)
		switch {
		case !sok:
			return fmt.Errorf("tables: %s: row %d: %s is null", path, *row, ColPairSource)
		case !tok:
			return fmt.Errorf("tables: %s: row %d: %s is null", path, *row, ColPairTarget)
		}
		if err := fn(*row, s, t); err != nil {
			return err
		}
	}
	return nil
}

// integerColumn returns a reader of the integer column a: value k and
// whether it is not null.
func integerColumn(path string, a arrow.Array, name string) (func(k int) (int64, bool), error) {
	valid := func(k int) bool { return a.IsValid(k) }
	switch c := a.(type) {
	case *array.Int32:
		return func(k int) (int64, bool) { return int64(c.Value(k)), valid(k) }, nil
	case *array.Int64:
		return func(k int) (int64, bool) { return c.Value(k), valid(k) }, nil
	case *array.Uint32:
		return func(k int) (int64, bool) { return int64(c.Value(k)), valid(k) }, nil
	case *array.Int16:
		return func(k int) (int64, bool) { return int64(c.Value(k)), valid(k) }, nil
	case *array.Uint16:
		return func(k int) (int64, bool) { return int64(c.Value(k)), valid(k) }, nil
	case *array.Int8:
		return func(k int) (int64, bool) { return int64(c.Value(k)), valid(k) }, nil
	case *array.Uint8:
		return func(k int) (int64, bool) { return int64(c.Value(k)), valid(k) }, nil
	case *array.Uint64:
		return func(k int) (int64, bool) {
			v := c.Value(k)
			if v > 1<<63-1 {
				return -1, valid(k) // no vertex has it: reported as an unknown id
			}
			return int64(v), valid(k)
		}, nil
	}
	return nil, fmt.Errorf("tables: %s: column %q is %s, not an integer column", path, name, a.DataType())
}

func fieldNames(s *arrow.Schema) []string {
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		names[i] = f.Name
	}
	return names
}
