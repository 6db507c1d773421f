package tables

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// binaryColumn writes the column chunks of one flat BYTE_ARRAY column
// encoded PLAIN (binary or string values with 32-bit offsets): it lays
// each data page out itself, every value copied once from the Arrow
// buffer into a page buffer kept from one page and chunk to the next, and
// hands the finished page to arrow-go's page writer. arrow-go's column
// writer copies each value into a pooled buffer, then again into the
// page it concatenates with the levels, and clears the pooled buffers it
// releases: for a column of WKB route geometries, a gigabyte of values,
// those copies and clears were most of the time spent writing the file.
//
// The pages are those arrow-go's column writer makes from the same
// values, byte for byte: they end where its would (after the write batch
// of rows whose values' PLAIN size reaches the page size), carry the same
// statistics, computed by the same calls over the same batches, and the
// same encodings. The chunk's statistics, which arrow-go sets only on
// chunks its column writer wrote, are set here.
type binaryColumn struct {
	descr *schema.Column
	props *parquet.WriterProperties
	path  string
	// Scratch reused from one page and chunk to the next.
	batchEnds  []int // the rows ending each write batch of the page
	page       []byte
	compressed bytes.Buffer
}

// maxSafeBatchDataSize is where arrow-go's byte-array column writer
// splits a write batch: it ends the batch before the row whose value
// would take the batch's values (their lengths plus 4 bytes each, nulls
// included) past 1 GiB.
const maxSafeBatchDataSize = 1 << 30

// binaryColumnFor returns the writer of column descr when this package
// encodes it: a BYTE_ARRAY leaf, not repeated, encoded PLAIN without a
// dictionary, in version 1 data pages, without a page index or a bloom
// filter, for Arrow binary or string values (32-bit offsets). Otherwise
// nil: arrow-go writes it.
func binaryColumnFor(descr *schema.Column, field arrow.Field, props *parquet.WriterProperties) *binaryColumn {
	path := descr.Path()
	switch {
	case descr.PhysicalType() != parquet.Types.ByteArray,
		field.Type.ID() != arrow.BINARY && field.Type.ID() != arrow.STRING,
		props.EncodingFor(path) != parquet.Encodings.Plain,
		props.DictionaryEnabledFor(path),
		props.DataPageVersion() != parquet.DataPageV1,
		props.PageIndexEnabledFor(path), props.BloomFilterEnabledFor(path),
		descr.MaxRepetitionLevel() != 0, descr.MaxDefinitionLevel() > 1:
		return nil
	}
	return &binaryColumn{descr: descr, props: props, path: path}
}

// binaryValues is the part of an Arrow binary or string array a page
// reads: the value buffer, the offsets of the array's rows into it, and
// the validity bits of the rows whose nulls are left out (nil when every
// value is written, as arrow-go writes a required column's every slot).
type binaryValues struct {
	data    []byte
	offsets []int32 // len(offsets) = rows + 1
	bitmap  []byte
	off     int // of the array's first row in bitmap
}

// writeChunk writes col as the column chunk of pager and returns the
// chunk's statistics, to be set on its metadata before the pager closes
// (unset when the column keeps none).
func (c *binaryColumn) writeChunk(pager file.PageWriter, col arrow.Array) (metadata.EncodedStatistics, error) {
	var v binaryValues
	switch col := col.(type) {
	case *array.Binary:
		v.offsets = col.ValueOffsets()
	case *array.String:
		v.offsets = col.ValueOffsets()
	default:
		return metadata.EncodedStatistics{}, fmt.Errorf("binary column %s: unexpected array %s", c.path, col.DataType())
	}
	rows := col.Len()
	if rows == 0 {
		return metadata.EncodedStatistics{}, nil
	}
	if buf := col.Data().Buffers()[2]; buf != nil {
		v.data = buf.Bytes()
	}
	// pqarrow writes a required column's slots and a column without nulls
	// from the offsets alone, and the others from the validity bits.
	if c.descr.MaxDefinitionLevel() > 0 && col.NullN() > 0 {
		v.bitmap, v.off = col.NullBitmapBytes(), col.Data().Offset()
	}

	var pageStats, chunkStats *metadata.ByteArrayStatistics
	if c.props.StatisticsEnabledFor(c.path) && c.descr.SortOrder() != schema.SortUNKNOWN {
		pageStats = metadata.NewStatistics(c.descr, c.props.Allocator()).(*metadata.ByteArrayStatistics)
		chunkStats = metadata.NewStatistics(c.descr, c.props.Allocator()).(*metadata.ByteArrayStatistics)
	}
	var (
		batch    = int(c.props.WriteBatchSize())
		pageSize = c.props.DataPageSize()
	)
	for firstRow := 0; firstRow < rows; {
		// The page's batches: arrow-go cuts the page after the first
		// whose values take it to the page size.
		ends := c.batchEnds[:0]
		size := int64(0)
		for lo := firstRow; lo < rows; {
			hi := safeBatchEnd(v.offsets, lo, min(lo+batch, rows))
			ends = append(ends, hi)
			size += v.plainSize(lo, hi)
			if lo = hi; size >= pageSize {
				break
			}
		}
		c.batchEnds = ends
		if err := c.writePage(pager, &v, firstRow, ends, size, pageStats, chunkStats); err != nil {
			return metadata.EncodedStatistics{}, err
		}
		firstRow = ends[len(ends)-1]
	}
	if chunkStats == nil {
		return metadata.EncodedStatistics{}, nil
	}
	stats, err := chunkStats.Encode()
	stats.ApplyStatSizeLimits(int(c.props.MaxStatsSizeFor(c.path)))
	stats.Signed = c.descr.SortOrder() == schema.SortSIGNED
	return stats, err
}

// safeBatchEnd returns where the write batch of rows [lo, hi) ends once
// arrow-go has split it at maxSafeBatchDataSize.
func safeBatchEnd(offsets []int32, lo, hi int) int {
	if int64(offsets[hi])-int64(offsets[lo])+4*int64(hi-lo) <= maxSafeBatchDataSize {
		return hi
	}
	var sum int64
	for i := lo; i < hi; i++ {
		size := int64(offsets[i+1]) - int64(offsets[i]) + 4
		if sum+size > maxSafeBatchDataSize && i > lo {
			return i
		}
		sum += size
	}
	return hi
}

// plainSize returns the bytes the values of rows [lo, hi) take PLAIN
// encoded: a 4-byte length and the bytes of each value written.
func (v *binaryValues) plainSize(lo, hi int) int64 {
	if v.bitmap == nil {
		return int64(v.offsets[hi]) - int64(v.offsets[lo]) + 4*int64(hi-lo)
	}
	size := int64(0)
	v.validRuns(lo, hi, func(a, b int) {
		size += int64(v.offsets[b]) - int64(v.offsets[a]) + 4*int64(b-a)
	})
	return size
}

// validRuns calls visit for each run [a, b) of valid rows in [lo, hi).
func (v *binaryValues) validRuns(lo, hi int, visit func(a, b int)) {
	for i := lo; i < hi; {
		if n := equalBits(v.bitmap, v.off+i, v.off+hi, 1); n > 0 {
			visit(i, i+n)
			i += n
		}
		i += equalBits(v.bitmap, v.off+i, v.off+hi, 0)
	}
}

// appendPlain appends the values of rows [lo, hi), all valid, PLAIN
// encoded; dst has the room for them.
func (v *binaryValues) appendPlain(dst []byte, lo, hi int) []byte {
	for i := lo; i < hi; i++ {
		s, e := v.offsets[i], v.offsets[i+1]
		dst = binary.LittleEndian.AppendUint32(dst, uint32(e-s))
		dst = append(dst, v.data[s:e]...)
	}
	return dst
}

// writePage writes the rows from firstRow to the last of ends, the
// page's write batches, whose values take size bytes, as one data page.
func (c *binaryColumn) writePage(pager file.PageWriter, v *binaryValues, firstRow int, ends []int, size int64,
	pageStats, chunkStats *metadata.ByteArrayStatistics) error {
	endRow := ends[len(ends)-1]
	page := c.page[:0]
	if c.descr.MaxDefinitionLevel() > 0 {
		page = append(page, 0, 0, 0, 0)
		page = appendLevelsRLE(page, v.bitmap, v.off+firstRow, endRow-firstRow)
		binary.LittleEndian.PutUint32(page, uint32(len(page)-4))
	}
	if int64(len(page))+size > math.MaxInt32 {
		return fmt.Errorf("binary column %s: uncompressed page size %d exceeds INT32_MAX", c.path, int64(len(page))+size)
	}
	page = slices.Grow(page, int(size))
	for lo, b := firstRow, 0; b < len(ends); lo, b = ends[b], b+1 {
		hi := ends[b]
		if v.bitmap == nil {
			page = v.appendPlain(page, lo, hi)
			if pageStats != nil {
				pageStats.UpdateFromArrowOffsets(v.data, v.offsets[lo:hi+1], 0)
			}
			continue
		}
		valid := 0
		v.validRuns(lo, hi, func(a, b int) {
			page = v.appendPlain(page, a, b)
			valid += b - a
		})
		if pageStats != nil {
			pageStats.UpdateFromArrowOffsetsSpaced(v.data, v.offsets[lo:hi+1], v.bitmap, int64(v.off+lo), int64(hi-lo-valid))
		}
	}
	c.page = page

	var stats metadata.EncodedStatistics
	if pageStats != nil {
		var err error
		stats, err = pageStatistics(pageStats, chunkStats, int(c.props.MaxStatsSizeFor(c.path)), c.descr.SortOrder() == schema.SortSIGNED)
		if err != nil {
			return err
		}
	}
	return writeDataPage(pager, &c.compressed, page, parquet.Encodings.Plain, endRow-firstRow, stats, firstRow)
}
