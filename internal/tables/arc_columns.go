package tables

import (
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/arrowslices"
	"github.com/pathflow/pathflow/internal/hugepages"
)

// ArcColumn is a column of the edges table beyond src, dst and weight:
// what an input knows of each arc besides its weight (a road's travel
// time, length and way id), for analysts who join a path's arcs back to
// it. Exactly one of Int32 and Int64 is set, with one value per arc in
// the edge list's order.
type ArcColumn struct {
	// Name is the column's name, other than src, dst and weight.
	Name string
	// Unit, when set, is recorded as the field's "unit" metadata (FieldUnit):
	// "ms", "m".
	Unit string
	// Int32 holds the values of an int32 column.
	Int32 []int32
	// Int64 holds the values of an int64 column.
	Int64 []int64
}

// Len returns the number of values of c.
func (c ArcColumn) Len() int { return max(len(c.Int32), len(c.Int64)) }

// field is c's field in the edges schema.
func (c ArcColumn) field() arrow.Field {
	f := arrow.Field{Name: c.Name, Type: int32Type}
	if c.Int64 != nil {
		f.Type = int64Type
	}
	if c.Unit != "" {
		f.Metadata = arrow.MetadataFrom(map[string]string{FieldUnit: c.Unit})
	}
	return f
}

// slice returns rows lo..hi-1 of c as an array sharing c's memory.
func (c ArcColumn) slice(lo, hi int) arrow.Array {
	if c.Int64 != nil {
		return arrowslices.WrapInt64(c.Int64[lo:hi])
	}
	return arrowslices.WrapInt32(c.Int32[lo:hi])
}

// WithArcColumns appends columns to the edges table that WriteGraph and
// GraphRecords write, after src, dst and weight, in the order given; a
// Parquet file delta-encodes them as it does the others. Every other
// writer and every reader ignores it; ReadGraph skips such columns, and
// ReadArcColumn reads one back.
func WithArcColumns(cols ...ArcColumn) Option {
	return func(c *Config) { c.arcColumns = append(c.arcColumns, cols...) }
}

// checkArcColumns refuses arc columns that a table of m arcs cannot
// carry: without a name, of a name the edges table already has, without
// values of exactly one type, or not of one value per arc.
func checkArcColumns(cols []ArcColumn, m int) error {
	seen := []string{ColSrc, ColDst, ColWeight}
	for _, c := range cols {
		switch {
		case c.Name == "":
			return fmt.Errorf("tables: an arc column without a name")
		case slices.Contains(seen, c.Name):
			return fmt.Errorf("tables: arc column %q: the edges table already has a column of that name", c.Name)
		case (c.Int32 == nil) == (c.Int64 == nil):
			return fmt.Errorf("tables: arc column %q: set exactly one of Int32 and Int64", c.Name)
		case c.Len() != m:
			return fmt.Errorf("tables: arc column %q has %d values for %d arcs", c.Name, c.Len(), m)
		}
		seen = append(seen, c.Name)
	}
	return nil
}

// edgesSchemaWith is EdgesSchema followed by the fields of cols.
func edgesSchemaWith(meta map[string]string, cols []ArcColumn) *arrow.Schema {
	fields := EdgesSchema(nil).Fields()
	for _, c := range cols {
		fields = append(fields, c.field())
	}
	return SchemaWith(meta, fields...)
}

// edgesEncodingWith is edgesEncoding with cols delta-encoded as well: an
// input's arc attributes (lengths, times, way ids of neighbouring arcs)
// change by small steps like its ids.
func edgesEncodingWith(cols []ArcColumn) ParquetEncoding {
	enc := ParquetEncoding{Delta: slices.Clone(edgesEncoding.Delta)}
	for _, c := range cols {
		enc.Delta = append(enc.Delta, c.Name)
	}
	return enc
}

// ReadArcColumn reads the column name of the edges table at path, in
// either format: an int32 or int64 column without nulls, with its unit
// from the field metadata. The src, dst and weight columns read as well.
// O(M); a Parquet table decodes its chunks on every core.
func ReadArcColumn(path, name string, opts ...Option) (col ArcColumn, err error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return ArcColumn{}, err
	}
	if format, err := DetectFileFormat(path); err == nil && format == Parquet {
		return readArcColumnParquet(path, name, cfg)
	}
	defer RecoverInto(&err, path)
	tr, err := OpenTable(path, cfg)
	if err != nil {
		return ArcColumn{}, err
	}
	defer tr.Close()
	i, col, err := arcColumnOf(tr.schema, name)
	if err != nil {
		return ArcColumn{}, fmt.Errorf("%w (in %s)", err, path)
	}
	err = tr.Scan(func(rec arrow.RecordBatch) error {
		if err := NoNulls(rec, i); err != nil {
			return err
		}
		switch a := rec.Column(i).(type) {
		case *array.Int32:
			col.Int32 = append(col.Int32, a.Int32Values()...)
		case *array.Int64:
			col.Int64 = append(col.Int64, a.Int64Values()...)
		}
		return nil
	})
	if err != nil {
		return ArcColumn{}, err
	}
	return col, nil
}

// readArcColumnParquet is ReadArcColumn of a Parquet table.
func readArcColumnParquet(path, name string, cfg Config) (ArcColumn, error) {
	pc, err := openParquetColumns(path, cfg)
	if err != nil {
		return ArcColumn{}, err
	}
	defer pc.Close()
	i, col, err := arcColumnOf(pc.schema, name)
	if err != nil {
		return ArcColumn{}, fmt.Errorf("%w (in %s)", err, path)
	}
	if pc.rows > math.MaxInt {
		return ArcColumn{}, fmt.Errorf("tables: %s: %d rows", path, pc.rows)
	}
	target := columnTarget{field: i}
	if col.Int64 != nil {
		col.Int64 = hugepages.Make[int64](int(pc.rows))
		target.i64 = col.Int64
	} else {
		col.Int32 = hugepages.Make[int32](int(pc.rows))
		target.i32 = col.Int32
	}
	if err := pc.read(cfg.Concurrency, []columnTarget{target}); err != nil {
		return ArcColumn{}, err
	}
	return col, nil
}

// arcColumnOf finds the column name in s and returns its index and an
// empty ArcColumn of its name, unit and type (a non-nil empty slice).
func arcColumnOf(s *arrow.Schema, name string) (int, ArcColumn, error) {
	found := s.FieldIndices(name)
	switch {
	case len(found) == 0:
		return 0, ArcColumn{}, fmt.Errorf("tables: no column %q", name)
	case len(found) > 1:
		return 0, ArcColumn{}, fmt.Errorf("tables: column %q appears %d times", name, len(found))
	}
	f := s.Field(found[0])
	col := ArcColumn{Name: name}
	if k := f.Metadata.FindKey(FieldUnit); k >= 0 {
		col.Unit = f.Metadata.Values()[k]
	}
	switch {
	case arrow.TypeEqual(f.Type, int32Type):
		col.Int32 = []int32{}
	case arrow.TypeEqual(f.Type, int64Type):
		col.Int64 = []int64{}
	default:
		return 0, ArcColumn{}, fmt.Errorf("tables: column %q has type %s, want int32 or int64", name, f.Type)
	}
	return found[0], col, nil
}
