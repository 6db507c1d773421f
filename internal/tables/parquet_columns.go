package tables

import (
	"errors"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pathflow/pathflow/internal/parallel"
)

// parquetColumns decodes whole integer columns of a Parquet file straight
// into the caller's slices, every (row group, column) chunk a task of its
// own on cfg.concurrency goroutines. This is how the graph tables load:
// no Arrow record batches, no per-batch appends, and as many chunks
// decoding at once as there are cores (an ingest output has a row group
// per WithBatchRows rows).
type parquetColumns struct {
	path   string
	pf     *file.Reader
	schema *arrow.Schema // as the Arrow reader sees it, field ids dropped
	rows   int64
	// starts[g] is the first row of row group g; starts[len] the row count.
	starts []int64
}

// openParquetColumns opens the Parquet file at path for column reads.
// Corrupt files give errors, not panics.
func openParquetColumns(path string, cfg Config) (pc *parquetColumns, err error) {
	defer RecoverInto(&err, path)
	pf, err := file.OpenParquetFile(path, false, file.WithReadProps(parquet.NewReaderProperties(cfg.parquetReadMem)))
	if err != nil {
		return nil, fmt.Errorf("tables: %s: %w", path, err)
	}
	md := pf.MetaData()
	schema, err := pqarrow.FromParquet(md.Schema, &pqarrow.ArrowReadProperties{}, md.KeyValueMetadata())
	if err != nil {
		pf.Close()
		return nil, fmt.Errorf("tables: %s: %w", path, err)
	}
	pc = &parquetColumns{path: path, pf: pf, schema: withoutFieldIDs(schema), starts: make([]int64, pf.NumRowGroups()+1)}
	for g := range pf.NumRowGroups() {
		pc.starts[g+1] = pc.starts[g] + md.RowGroup(g).NumRows()
	}
	pc.rows = pc.starts[len(pc.starts)-1]
	if pc.rows != pf.NumRows() {
		pf.Close()
		return nil, fmt.Errorf("tables: %s: row groups hold %d rows, the footer says %d", path, pc.rows, pf.NumRows())
	}
	return pc, nil
}

// Close closes the file.
func (pc *parquetColumns) Close() error {
	if err := pc.pf.Close(); err != nil {
		return fmt.Errorf("tables: %s: %w", pc.path, err)
	}
	return nil
}

// columnTarget is where one column goes: exactly one of i32, i64 and
// units, with pc.rows entries: i32 and i64 for integer columns of that
// width, units for a lon or lat column of float64 degrees, stored in
// units of 10^-7 degree (unitsFromDegrees).
type columnTarget struct {
	field int // index in pc.schema, which is the Parquet leaf index of a flat schema
	i32   []int32
	i64   []int64
	units []int32
}

// read decodes every target column whole, rejecting nulls, on workers
// goroutines.
func (pc *parquetColumns) read(workers int, targets []columnTarget) error {
	groups := len(pc.starts) - 1
	var (
		mu    sync.Mutex
		first error
	)
	parallel.For(groups*len(targets), workers, func(k int) {
		g, t := k/len(targets), targets[k%len(targets)]
		if err := pc.readChunk(g, t); err != nil {
			mu.Lock()
			first = errors.Join(first, err)
			mu.Unlock()
		}
	})
	return first
}

// readChunk decodes row group g of one target column into its rows of
// the target.
func (pc *parquetColumns) readChunk(g int, t columnTarget) (err error) {
	name := pc.schema.Field(t.field).Name
	defer RecoverInto(&err, pc.path)
	defer func() {
		if err != nil {
			err = fmt.Errorf("tables: %s: column %q, row group %d: %w", pc.path, name, g, err)
		}
	}()
	leaf := pc.pf.MetaData().Schema.Column(t.field)
	if leaf.Name() != name || leaf.MaxRepetitionLevel() != 0 {
		return fmt.Errorf("not a flat column (Parquet leaf %q)", leaf.Path())
	}
	cr, err := pc.pf.RowGroup(g).Column(t.field)
	if err != nil {
		return err
	}
	lo, hi := pc.starts[g], pc.starts[g+1]
	var defs []int16
	if leaf.MaxDefinitionLevel() > 0 {
		defs = make([]int16, hi-lo)
	}
	switch r := cr.(type) {
	case *file.Int32ColumnChunkReader:
		if t.i32 == nil {
			return errors.New("an int32 column where another type is wanted")
		}
		return readAll(t.i32[lo:hi], defs, r.ReadBatch)
	case *file.Int64ColumnChunkReader:
		if t.i64 == nil {
			return errors.New("an int64 column where another type is wanted")
		}
		return readAll(t.i64[lo:hi], defs, r.ReadBatch)
	case *file.Float64ColumnChunkReader:
		if t.units == nil {
			return errors.New("a float64 column where an integer is wanted")
		}
		deg := make([]float64, hi-lo)
		if err := readAll(deg, defs, r.ReadBatch); err != nil {
			return err
		}
		return unitsFromDegrees(t.units[lo:hi], deg, name, lo)
	}
	return fmt.Errorf("physical type %s, want INT32, INT64 or DOUBLE", leaf.PhysicalType())
}

// readAll fills out from a column chunk reader's ReadBatch; defs, when the
// column is optional, takes its definition levels, and a null is an error.
func readAll[T int32 | int64 | float64](out []T, defs []int16, readBatch func(int64, []T, []int16, []int16) (int64, int, error)) error {
	for got := 0; got < len(out); {
		var levels []int16
		if defs != nil {
			levels = defs[got:]
		}
		total, values, err := readBatch(int64(len(out)-got), out[got:], levels, nil)
		switch {
		case err != nil:
			return err
		case int64(values) != total:
			return errors.New("column has nulls")
		case values == 0:
			return fmt.Errorf("the chunk ends after %d of %d rows", got, len(out))
		}
		got += values
	}
	return nil
}
