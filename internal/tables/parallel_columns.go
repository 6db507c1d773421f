package tables

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// columnsWriter writes a Parquet file of flat columns, lists of a flat
// element and structs of flat fields (ownedColumns), and encodes the
// columns of each row group at once, one goroutine a column, each into a
// buffer of its own; the buffers are then written out in column order.
// pqarrow's FileWriter encodes one column after another: a table small
// enough to be one part file (a 1,000 x 1,000 table of a road network) is
// then written on one core, and each column more (a metric beside the
// distance) adds its whole encoding to the write tail.
//
// The file is assembled here from arrow-go's exported parts (the footer's
// metadata builders, its page writers and column writers) rather than by
// file.Writer, because a column chunk whose pages this package builds
// (pageEncoder: every DELTA_BINARY_PACKED integer column, every PLAIN
// binary or string one) needs its statistics set on its metadata, which
// file.Writer keeps to itself. The bytes are those pqarrow writes: the
// same Parquet schema, the same stored Arrow schema, the same pages and
// footer (a test compares them).
//
// Columns are independent within a row group: each has its own page
// writer, codec, statistics and buffer, and they meet only when the row
// group is written out. Deeper nesting keeps pqarrow's FileWriter, which
// builds any shape's levels (ownedColumns), and so do writer properties
// this assembly does not write (encryption, page indexes, bloom filters:
// ownsFile).
type columnsWriter struct {
	sink   *CountingWriter // its Tell gives the offsets in the footer
	meta   *metadata.FileMetaDataBuilder
	props  *parquet.WriterProperties
	fields []arrow.Field
	leaves []*schema.Column // every field's Parquet leaves, in order
	// firstLeaf[i] is the index in leaves of field i's first leaf;
	// firstLeaf[len(fields)] is the count of leaves.
	firstLeaf []int
	maxRows   int64
	arrow     pqarrow.ArrowWriterProperties
	rowGroups int
	err       error
	// own[i] encodes flat field i when this package builds its pages.
	own []pageEncoder
	// defLevels holds each nullable or nested field's definition levels,
	// reused from one row group to the next; for a flat field, its first
	// onesUpTo[i] entries are known to be 1. repLevels holds a list
	// field's repetition levels.
	defLevels [][]int16
	onesUpTo  []int
	repLevels [][]int16
	// chunkMem holds the encoded column chunks of a row group until they
	// are written out.
	chunkMem *chunkMemory
}

// ownedColumns reports whether columnsWriter writes every field of
// schema: flat fields, lists of a flat element and structs of flat
// fields (leafCount), without an extension or dictionary.
func ownedColumns(schema *arrow.Schema) bool {
	for _, f := range schema.Fields() {
		if leafCount(f) == 0 {
			return false
		}
	}
	return true
}

// hasExtension reports whether f is stored as an Arrow extension type,
// which pqarrow's writer unwraps.
func hasExtension(f arrow.Field) bool {
	return f.Metadata.FindKey(ipc.ExtensionTypeKeyName) >= 0
}

// ownsFile reports whether columnsWriter writes every part of a file with
// props: it writes no encryption, page index or bloom filter.
func ownsFile(schema *arrow.Schema, props *parquet.WriterProperties) bool {
	if props.FileEncryptionProperties() != nil {
		return false
	}
	for _, f := range schema.Fields() {
		if props.PageIndexEnabledFor(f.Name) || props.BloomFilterEnabledFor(f.Name) {
			return false
		}
	}
	return true
}

// newColumnsWriter starts a Parquet file of schema on w, as
// pqarrow.NewFileWriter does with the Arrow schema stored: the schema's
// metadata, then the key ARROW:schema holding the serialised schema.
func newColumnsWriter(arrowSchema *arrow.Schema, w io.Writer, props *parquet.WriterProperties, arrowProps pqarrow.ArrowWriterProperties) (*columnsWriter, error) {
	pqSchema, err := pqarrow.ToParquet(arrowSchema, props, arrowProps)
	if err != nil {
		return nil, err
	}
	fields := arrowSchema.Fields()
	firstLeaf := make([]int, len(fields)+1)
	for i, f := range fields {
		firstLeaf[i+1] = firstLeaf[i] + leafCount(f)
	}
	if pqSchema.NumColumns() != firstLeaf[len(fields)] {
		return nil, fmt.Errorf("tables: %d Parquet columns for %d leaves", pqSchema.NumColumns(), firstLeaf[len(fields)])
	}
	meta := make(metadata.KeyValueMetadata, 0, arrowSchema.Metadata().Len()+1)
	for i, k := range arrowSchema.Metadata().Keys() {
		meta.Append(k, arrowSchema.Metadata().Values()[i])
	}
	meta.Append("ARROW:schema", base64.StdEncoding.EncodeToString(serializedSchema(arrowSchema, props)))
	c := &columnsWriter{
		sink:   &CountingWriter{W: w},
		meta:   metadata.NewFileMetadataBuilder(pqSchema, props, meta),
		props:  props,
		fields: fields, maxRows: props.MaxRowGroupLength(), arrow: arrowProps,
		leaves: make([]*schema.Column, pqSchema.NumColumns()), firstLeaf: firstLeaf,
		own:       make([]pageEncoder, len(fields)),
		defLevels: make([][]int16, len(fields)), onesUpTo: make([]int, len(fields)),
		repLevels: make([][]int16, len(fields)),
		chunkMem:  newChunkMemory(pqSchema.NumColumns()),
	}
	for j := range c.leaves {
		c.leaves[j] = pqSchema.Column(j)
	}
	for i, f := range fields {
		if f.Type.ID() != arrow.STRUCT { // a flat field or a list: one leaf
			c.own[i] = pageEncoderFor(c.leaves[firstLeaf[i]], f, props)
		}
	}
	if _, err := c.sink.Write(parquetMagic); err != nil {
		return nil, fmt.Errorf("parquet: magic number: %w", err)
	}
	return c, nil
}

// pageEncoder writes the column chunks of one flat or list column whose
// pages this package builds itself, faster than arrow-go's column writer and
// byte for byte the same: it hands each finished page to the chunk's page
// writer and returns the chunk's statistics, to be set on its metadata
// before the pager closes (unset when the column keeps none).
type pageEncoder interface {
	writeChunk(pager file.PageWriter, col arrow.Array) (metadata.EncodedStatistics, error)
}

// pageEncoderFor returns the encoder of leaf descr holding field's
// values, or nil where arrow-go's column writer writes it.
func pageEncoderFor(descr *schema.Column, field arrow.Field, props *parquet.WriterProperties) pageEncoder {
	if d := deltaColumnFor(descr, field, props); d != nil {
		return d
	}
	if b := binaryColumnFor(descr, field, props); b != nil {
		return b
	}
	if l := listColumnFor(descr, field, props); l != nil {
		return l
	}
	return nil
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
	if c.err != nil {
		return c.err
	}
	n := rec.NumRows()
	if n <= c.maxRows {
		c.err = c.writeRowGroup(rec)
		return c.err
	}
	for lo := int64(0); lo < n; lo += c.maxRows {
		part := rec.NewSlice(lo, min(lo+c.maxRows, n))
		c.err = c.writeRowGroup(part)
		part.Release()
		if c.err != nil {
			return c.err
		}
	}
	return nil
}

// chunk is one column chunk of a row group, encoded into its page
// writer's buffer and waiting to be written out.
type chunk struct {
	meta   *metadata.ColumnChunkMetaDataBuilder
	pager  file.PageWriter
	writer file.ColumnChunkWriter // nil for a chunk of a pageEncoder
	stats  metadata.EncodedStatistics
	err    error
}

// writeRowGroup encodes rec's columns concurrently, each into buffered
// page writers (one a leaf), and writes them out in column order, as
// file.Writer's buffered row group does.
func (c *columnsWriter) writeRowGroup(rec arrow.RecordBatch) error {
	rgMeta := c.meta.AppendRowGroup()
	ordinal := int16(c.rowGroups)
	c.rowGroups++
	chunks := make([]chunk, len(c.leaves))
	// Chunks without rows have no pages to encode at once, and a page
	// writer that writes straight to the file gives their metadata the
	// offsets pqarrow's writer gives them.
	buffered := rec.NumRows() > 0
	for i := range c.fields {
		for j := c.firstLeaf[i]; j < c.firstLeaf[i+1]; j++ {
			path := c.leaves[j].Path()
			chunks[j].meta = rgMeta.NextColumnChunk()
			pager, err := file.NewPageWriter(c.sink, c.props.CompressionFor(path), c.props.CompressionLevelFor(path),
				chunks[j].meta, ordinal, int16(j), c.chunkMem, buffered, nil, nil)
			if err != nil {
				return err
			}
			chunks[j].pager = pager
			if c.own[i] == nil {
				chunks[j].writer = file.NewColumnChunkWriter(chunks[j].meta, pager, c.props)
			}
		}
	}
	var wg sync.WaitGroup
	for i, col := range rec.Columns() {
		wg.Go(func() {
			leaves := chunks[c.firstLeaf[i]:c.firstLeaf[i+1]]
			if c.own[i] != nil {
				leaves[0].stats, leaves[0].err = c.own[i].writeChunk(leaves[0].pager, col)
				return
			}
			err := c.writeField(i, leaves, col)
			for j := range leaves {
				if err == nil {
					// The last page too, here rather than in column order.
					err = leaves[j].writer.(interface{ FlushBufferedDataPages() error }).FlushBufferedDataPages()
				}
				leaves[j].err = err
			}
		})
	}
	wg.Wait()
	for j := range chunks {
		ch := &chunks[j]
		if ch.err == nil {
			if ch.writer != nil {
				ch.err = ch.writer.Close()
			} else {
				if rec.NumRows() > 0 && ch.stats.IsSet() {
					ch.meta.SetStats(ch.stats)
				}
				ch.err = ch.pager.Close(false, false)
			}
		}
		if ch.err != nil {
			return fmt.Errorf("column %q: %w", c.leaves[j].Path(), ch.err)
		}
	}
	rgMeta.SetNumRows(int(rec.NumRows()))
	return rgMeta.Finish(0, ordinal)
}

// writeField encodes field i of a row group into the column writers of
// its leaves. A flat field's definition level is 1 for a value and 0 for
// a null, and a required one has none; a nested field's levels come from
// listLevels or structLevels.
func (c *columnsWriter) writeField(i int, leaves []chunk, col arrow.Array) error {
	ctx := pqarrow.NewArrowWriteContext(context.Background(), &c.arrow)
	field := c.fields[i]
	switch col := col.(type) {
	case *array.List:
		l, err := listLevels(col, field.Nullable, c.defLevels[i], c.repLevels[i])
		if err != nil {
			return err
		}
		defer l.values.Release()
		c.defLevels[i], c.repLevels[i] = l.def, l.rep
		return pqarrow.WriteArrowToColumn(ctx, leaves[0].writer, l.values, l.def, l.rep, l.nullable)
	case *array.Struct:
		for k := range leaves {
			l, err := structLevels(col, field.Nullable, k, c.defLevels[i])
			if err != nil {
				return err
			}
			if l.def != nil {
				c.defLevels[i] = l.def
			}
			err = pqarrow.WriteArrowToColumn(ctx, leaves[k].writer, l.values, l.def, nil, l.nullable)
			l.values.Release()
			if err != nil {
				return err
			}
		}
		return nil
	}
	var def []int16
	if field.Nullable {
		def = c.definitionLevels(i, col)
	}
	return pqarrow.WriteArrowToColumn(ctx, leaves[0].writer, col, def, nil, field.Nullable)
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
	if c.err != nil {
		return c.err
	}
	return c.meta.AppendKeyValueMetadata(key, value)
}

// Close writes the footer: the file's metadata, its length and the magic
// number, as file.Writer does.
func (c *columnsWriter) Close() error {
	if c.err != nil {
		return c.err
	}
	c.err = errors.New("parquet: the file is closed")
	md, err := c.meta.Snapshot()
	if err != nil {
		return err
	}
	n, err := md.WriteTo(c.sink, nil)
	if err != nil {
		return err
	}
	var tail [8]byte
	binary.LittleEndian.PutUint32(tail[:], uint32(n))
	copy(tail[4:], parquetMagic)
	_, err = c.sink.Write(tail[:])
	return err
}
