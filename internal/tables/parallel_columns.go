package tables

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// columnsWriter writes a Parquet file of flat columns (no lists, structs
// or maps) and encodes the columns of each row group at once, one
// goroutine a column, into the row group's buffers; closing the row group
// writes them out in column order. pqarrow's FileWriter encodes one column
// after another: a table small enough to be one part file (a 1,000 x 1,000
// table of a road network) is then written on one core, and each column
// more (a metric beside the distance) adds its whole encoding to the
// write tail. The file's bytes are those pqarrow writes: the same Parquet
// schema, the same stored Arrow schema, the same pages (a test compares
// them), since only the order in which the columns' pages are built
// changes.
//
// Columns are independent in a buffered row group: each has its own
// page writer, codec, statistics and buffer, and they meet only when the
// row group is closed. Nested columns would need Parquet's repetition
// levels, which only pqarrow's FileWriter builds: their tables keep it
// (flatColumns).
type columnsWriter struct {
	pw      *file.Writer
	fields  []arrow.Field
	maxRows int64
	arrow   pqarrow.ArrowWriterProperties
	// defLevels holds each nullable column's definition levels, reused
	// from one row group to the next; its first onesUpTo[i] entries are
	// known to be 1.
	defLevels [][]int16
	onesUpTo  []int
}

// flatColumns reports whether every field of schema is a leaf that
// columnsWriter writes: a primitive or binary type, without an extension
// or dictionary.
func flatColumns(schema *arrow.Schema) bool {
	for _, f := range schema.Fields() {
		switch f.Type.ID() {
		case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
			arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
			arrow.FLOAT32, arrow.FLOAT64, arrow.STRING, arrow.BINARY,
			arrow.LARGE_STRING, arrow.LARGE_BINARY, arrow.DATE32, arrow.TIMESTAMP:
		default:
			return false
		}
		if f.Metadata.FindKey(ipc.ExtensionTypeKeyName) >= 0 {
			return false
		}
	}
	return true
}

// newColumnsWriter starts a Parquet file of schema on w, as
// pqarrow.NewFileWriter does with the Arrow schema stored: the schema's
// metadata, then the key ARROW:schema holding the serialised schema.
func newColumnsWriter(schema *arrow.Schema, w io.Writer, props *parquet.WriterProperties, arrowProps pqarrow.ArrowWriterProperties) (*columnsWriter, error) {
	pqSchema, err := pqarrow.ToParquet(schema, props, arrowProps)
	if err != nil {
		return nil, err
	}
	meta := make(metadata.KeyValueMetadata, 0, schema.Metadata().Len()+1)
	for i, k := range schema.Metadata().Keys() {
		meta.Append(k, schema.Metadata().Values()[i])
	}
	meta.Append("ARROW:schema", base64.StdEncoding.EncodeToString(serializedSchema(schema, props)))
	pw, err := file.NewParquetWriterWithError(w, pqSchema.Root(), file.WithWriterProps(props), file.WithWriteMetadata(meta))
	if err != nil {
		return nil, err
	}
	return &columnsWriter{
		pw: pw, fields: schema.Fields(), maxRows: props.MaxRowGroupLength(), arrow: arrowProps,
		defLevels: make([][]int16, schema.NumFields()), onesUpTo: make([]int, schema.NumFields()),
	}, nil
}

// serializedSchema is the Arrow IPC stream of schema without batches, the
// form pqarrow stores (arrow/flight's SerializeSchema).
func serializedSchema(schema *arrow.Schema, props *parquet.WriterProperties) []byte {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(props.Allocator()))
	w.Close()
	return buf.Bytes()
}

// Write writes rec as row groups of at most the writer's row group
// length, as pqarrow's Write does.
func (c *columnsWriter) Write(rec arrow.RecordBatch) error {
	n := rec.NumRows()
	if n <= c.maxRows {
		return c.writeRowGroup(rec)
	}
	for lo := int64(0); lo < n; lo += c.maxRows {
		part := rec.NewSlice(lo, min(lo+c.maxRows, n))
		err := c.writeRowGroup(part)
		part.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// writeRowGroup encodes rec's columns concurrently into one buffered row
// group and writes it.
func (c *columnsWriter) writeRowGroup(rec arrow.RecordBatch) error {
	rg, err := c.pw.AppendBufferedRowGroupChecked()
	if err != nil {
		return err
	}
	errs := make([]error, rec.NumCols())
	var wg sync.WaitGroup
	for i, col := range rec.Columns() {
		cw, err := rg.Column(i)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.writeColumn(i, cw, col)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			rg.Close()
			return fmt.Errorf("column %q: %w", c.fields[i].Name, err)
		}
	}
	return rg.Close()
}

// writeColumn encodes column i of a row group: a flat column's definition
// level is 1 for a value and 0 for a null, and a required column has none.
func (c *columnsWriter) writeColumn(i int, cw file.ColumnChunkWriter, col arrow.Array) error {
	var def []int16
	if c.fields[i].Nullable {
		def = c.definitionLevels(i, col)
	}
	ctx := pqarrow.NewArrowWriteContext(context.Background(), &c.arrow)
	return pqarrow.WriteArrowToColumn(ctx, cw, col, def, nil, c.fields[i].Nullable)
}

// definitionLevels returns the definition levels of nullable column i's
// values col, in the column's buffer reused from one row group to the
// next: all ones without nulls (filled only as far as a longer group
// needs), else one a bit of the validity bitmap.
func (c *columnsWriter) definitionLevels(i int, col arrow.Array) []int16 {
	n := col.Len()
	def := c.defLevels[i]
	if cap(def) < n {
		def = make([]int16, n)
		c.onesUpTo[i] = 0
	}
	def = def[:n]
	c.defLevels[i] = def
	if col.NullN() == 0 {
		for j := c.onesUpTo[i]; j < n; j++ {
			def[j] = 1
		}
		c.onesUpTo[i] = max(c.onesUpTo[i], n)
		return def
	}
	bits, offset := col.NullBitmapBytes(), col.Data().Offset()
	j := 0
	// Up to a byte boundary of the bitmap one bit at a time, then eight
	// levels a byte from a table: a long-layout table's distance and
	// parent columns take a level a cell (2.7G for Gnutella30's all pairs
	// with parents).
	for ; j < n && (offset+j)&7 != 0; j++ {
		k := offset + j
		def[j] = int16(bits[k>>3]>>(k&7)) & 1
	}
	for ; j+8 <= n; j += 8 {
		*(*[8]int16)(def[j:]) = byteLevels[bits[(offset+j)>>3]]
	}
	for ; j < n; j++ {
		k := offset + j
		def[j] = int16(bits[k>>3]>>(k&7)) & 1
	}
	c.onesUpTo[i] = 0
	return def
}

// byteLevels[b] are the definition levels of the eight values whose
// validity bits are b, least significant bit first.
var byteLevels = func() (t [256][8]int16) {
	for b := range t {
		for k := range 8 {
			t[b][k] = int16(b>>k) & 1
		}
	}
	return t
}()

// AppendKeyValueMetadata adds a key to the footer's metadata.
func (c *columnsWriter) AppendKeyValueMetadata(key, value string) error {
	return c.pw.AppendKeyValueMetadata(key, value)
}

// Close writes the footer.
func (c *columnsWriter) Close() error {
	return c.pw.Close()
}
