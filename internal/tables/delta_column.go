package tables

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// deltaColumn writes the column chunks of one flat INT32 or INT64 column
// encoded DELTA_BINARY_PACKED: it builds each data page itself (the
// definition levels from the validity bits, the values a miniblock at a
// time) and hands the finished page to arrow-go's page writer, which
// compresses nothing more, writes the header and keeps the chunk's
// metadata. arrow-go's column writer spends about 5 ns a value on this
// column (a bit-writer call per value, a level per value, pooled buffers
// cleared), which made it most of the CPU of an all-pairs table.
//
// The pages are those arrow-go's column writer makes from the same
// values, byte for byte: they end where its would (after a write batch of
// rows whose values' finished blocks reach the page size), carry the same
// statistics and the same encodings. The chunk's statistics, which
// arrow-go sets only on chunks its column writer wrote, are set here.
type deltaColumn struct {
	descr *schema.Column
	props *parquet.WriterProperties
	path  string
	// Scratch reused from one chunk to the next.
	dense32    []int32
	dense64    []int64
	ends       []int // non-null values up to the end of each write batch
	blocks     []byte
	page       []byte
	compressed bytes.Buffer
}

// deltaColumnFor returns the writer of column descr when this package
// encodes it: an INT32 or INT64 leaf, not repeated, encoded
// DELTA_BINARY_PACKED without a dictionary, in version 1 data pages, for
// Arrow values of the same width. Otherwise nil: arrow-go writes it.
func deltaColumnFor(descr *schema.Column, field arrow.Field, props *parquet.WriterProperties) *deltaColumn {
	path := descr.Path()
	switch {
	case props.EncodingFor(path) != parquet.Encodings.DeltaBinaryPacked,
		props.DictionaryEnabledFor(path),
		props.DataPageVersion() != parquet.DataPageV1,
		descr.MaxRepetitionLevel() != 0, descr.MaxDefinitionLevel() > 1:
		return nil
	}
	switch {
	case descr.PhysicalType() == parquet.Types.Int32 && field.Type.ID() == arrow.INT32,
		descr.PhysicalType() == parquet.Types.Int64 && field.Type.ID() == arrow.INT64:
		return &deltaColumn{descr: descr, props: props, path: path}
	}
	return nil
}

// writeChunk writes col as the column chunk of pager and returns the
// chunk's statistics, to be set on its metadata before the pager closes
// (unset when the column keeps none).
func (c *deltaColumn) writeChunk(pager file.PageWriter, col arrow.Array) (metadata.EncodedStatistics, error) {
	switch col := col.(type) {
	case *array.Int32:
		dense := compactValues(&c.dense32, col.Int32Values(), col, c.props.WriteBatchSize(), &c.ends)
		return writeDeltaChunk(c, pager, col, dense)
	case *array.Int64:
		dense := compactValues(&c.dense64, col.Int64Values(), col, c.props.WriteBatchSize(), &c.ends)
		return writeDeltaChunk(c, pager, col, dense)
	}
	return metadata.EncodedStatistics{}, fmt.Errorf("delta column %s: unexpected array %s", c.path, col.DataType())
}

// compactValues returns the values of col that are not null, in order:
// vals itself when none is null, else a copy in *scratch, which keeps the
// memory for the next chunk. It sets *ends to the count of them up to the
// end of each write batch of batch rows.
func compactValues[T deltaInt](scratch *[]T, vals []T, col arrow.Array, batch int64, ends *[]int) []T {
	n := len(vals)
	e := (*ends)[:0]
	if col.NullN() == 0 {
		for lo := 0; lo < n; lo += int(batch) {
			e = append(e, min(lo+int(batch), n))
		}
		*ends = e
		return vals
	}
	if cap(*scratch) < n-col.NullN() {
		*scratch = make([]T, 0, n-col.NullN())
	}
	out := (*scratch)[:0]
	bitmap, off := col.NullBitmapBytes(), col.Data().Offset()
	for lo := 0; lo < n; lo += int(batch) {
		hi := min(lo+int(batch), n)
		i := lo
		for ; i+8 <= hi; i += 8 {
			switch g := bits8(bitmap, off+i); g {
			case 0:
			case 0xff:
				out = append(out, vals[i:i+8]...)
			default:
				for k := range 8 {
					if g>>k&1 != 0 {
						out = append(out, vals[i+k])
					}
				}
			}
		}
		for ; i < hi; i++ {
			if bitmap[(off+i)>>3]>>((off+i)&7)&1 != 0 {
				out = append(out, vals[i])
			}
		}
		e = append(e, len(out))
	}
	*ends = e
	return out
}

// minMaxStatistics is what the typed statistics of arrow-go offer for T.
type minMaxStatistics[T deltaInt] interface {
	metadata.TypedStatistics
	SetMinMax(lo, hi T)
}

// writeDeltaChunk writes one column chunk of col, whose non-null values
// are dense, page by page as arrow-go's column writer would.
func writeDeltaChunk[T deltaInt](c *deltaColumn, pager file.PageWriter, col arrow.Array, dense []T) (metadata.EncodedStatistics, error) {
	var pageStats, chunkStats minMaxStatistics[T]
	if c.props.StatisticsEnabledFor(c.path) && c.descr.SortOrder() != schema.SortUNKNOWN {
		pageStats = metadata.NewStatistics(c.descr, c.props.Allocator()).(minMaxStatistics[T])
		chunkStats = metadata.NewStatistics(c.descr, c.props.Allocator()).(minMaxStatistics[T])
	}
	var (
		nullable   = c.descr.MaxDefinitionLevel() > 0
		bitmap     []byte
		off        = col.Data().Offset()
		batch      = int(c.props.WriteBatchSize())
		pageSize   = c.props.DataPageSize()
		maxStats   = int(c.props.MaxStatsSizeFor(c.path))
		signed     = c.descr.SortOrder() == schema.SortSIGNED
		rows       = col.Len()
		firstRow   = 0 // of the page
		firstValue = 0 // of the page, in dense
		next       = 1 // dense[firstValue+next] starts the page's next block
		lo, hi     T
		haveMinMax bool
		blocks     = c.blocks[:0]
	)
	if col.NullN() != 0 {
		bitmap = col.NullBitmapBytes()
	}
	addBlock := func(end int) {
		var blo, bhi T
		blocks, blo, bhi = appendDeltaBlock(blocks, dense[firstValue+next-1:end])
		if !haveMinMax {
			lo, hi, haveMinMax = blo, bhi, true
		}
		lo, hi = min(lo, blo), max(hi, bhi)
		next = end - firstValue
	}
	flush := func(endRow, endValue int) error {
		if endValue-firstValue > next {
			addBlock(endValue)
		}
		count := endValue - firstValue
		page := c.page[:0]
		if nullable {
			page = append(page, 0, 0, 0, 0)
			page = appendLevelsRLE(page, bitmap, off+firstRow, endRow-firstRow)
			binary.LittleEndian.PutUint32(page, uint32(len(page)-4))
		}
		first := int64(0)
		if count > 0 {
			first = int64(dense[firstValue])
			if !haveMinMax {
				lo, hi = dense[firstValue], dense[firstValue]
			}
			lo, hi = min(lo, dense[firstValue]), max(hi, dense[firstValue])
		}
		page = appendDeltaHeader(page, count, first)
		page = append(page, blocks...)
		c.page = page

		var stats metadata.EncodedStatistics
		if pageStats != nil {
			pageStats.IncNulls(int64(endRow - firstRow - count))
			pageStats.IncNumValues(int64(count))
			if count > 0 {
				pageStats.SetMinMax(lo, hi)
			}
			var err error
			if stats, err = pageStatistics(pageStats, chunkStats, maxStats, signed); err != nil {
				return err
			}
		}
		err := writeDataPage(pager, &c.compressed, page, parquet.Encodings.DeltaBinaryPacked, endRow-firstRow, stats, firstRow)
		firstRow, firstValue, next, haveMinMax, blocks = endRow, endValue, 1, false, blocks[:0]
		return err
	}
	for b, endRow := 0, 0; endRow < rows; b++ {
		endRow = min(endRow+batch, rows)
		endValue := c.ends[b]
		for endValue-(firstValue+next) >= deltaBlockValues {
			addBlock(firstValue + next + deltaBlockValues)
		}
		if int64(len(blocks)) >= pageSize {
			if err := flush(endRow, endValue); err != nil {
				return metadata.EncodedStatistics{}, err
			}
		}
	}
	if firstRow < rows {
		if err := flush(rows, len(dense)); err != nil {
			return metadata.EncodedStatistics{}, err
		}
	}
	c.blocks = blocks
	if chunkStats == nil || rows == 0 {
		return metadata.EncodedStatistics{}, nil
	}
	stats, err := chunkStats.Encode()
	stats.ApplyStatSizeLimits(maxStats)
	stats.Signed = signed
	return stats, err
}
