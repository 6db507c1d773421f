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

	"github.com/pathflow/pathflow/internal/mapfile"
)

// listColumn writes the column chunks of a list of required INT32 or
// INT64 elements encoded PLAIN (a route's vertex ids): it builds each
// data page itself, the levels as runs straight from the list offsets
// (levelRuns) and the values copied once, and hands the finished page to
// arrow-go's page writer. arrow-go's column writer is handed a level a
// value twice over (definition and repetition), counts them, encodes
// them one call a batch and copies the values twice: on 100,000 Delaware
// routes (24M vertex ids), 0.28 of the routes file's 0.69 cpu-s of
// encoding in a CPU profile (the column's levels 0.08).
//
// The pages are those arrow-go's column writer makes from the same list,
// byte for byte: write batches of WriteBatchSize levels, a page cut after
// the first batch whose values reach the page size, repetition levels,
// then definition levels, then the values; the same statistics, with a
// null a level without a value (a null or empty list). The chunk's
// statistics are set here, as for deltaColumn.
type listColumn struct {
	descr  *schema.Column
	props  *parquet.WriterProperties
	path   string
	maxDef int16 // an element's level: 2 in a nullable list, else 1
	// Scratch reused from one page and chunk to the next.
	rep, def   levelRuns
	repOut     []byte
	defOut     []byte
	page       []byte
	compressed bytes.Buffer
}

// listColumnFor returns the writer of column descr when this package
// encodes it: the element of a list field, required, INT32 or INT64 of
// the Arrow element's width, encoded PLAIN without a dictionary, in
// version 1 data pages, without a page index or a bloom filter, on a
// little-endian host (the values are copied as they lie in memory).
// Otherwise nil: arrow-go writes it.
func listColumnFor(descr *schema.Column, field arrow.Field, props *parquet.WriterProperties) *listColumn {
	list, ok := field.Type.(*arrow.ListType)
	if !ok {
		return nil
	}
	elem := list.ElemField()
	path := descr.Path()
	maxDef := int16(1)
	if field.Nullable {
		maxDef = 2
	}
	switch {
	case !mapfile.LittleEndian, elem.Nullable,
		props.EncodingFor(path) != parquet.Encodings.Plain,
		props.DictionaryEnabledFor(path),
		props.DataPageVersion() != parquet.DataPageV1,
		props.PageIndexEnabledFor(path), props.BloomFilterEnabledFor(path),
		descr.MaxRepetitionLevel() != 1, descr.MaxDefinitionLevel() != maxDef:
		return nil
	}
	switch {
	case descr.PhysicalType() == parquet.Types.Int32 && elem.Type.ID() == arrow.INT32,
		descr.PhysicalType() == parquet.Types.Int64 && elem.Type.ID() == arrow.INT64:
		return &listColumn{descr: descr, props: props, path: path, maxDef: maxDef}
	}
	return nil
}

// writeChunk writes col, a list array, as the column chunk of pager and
// returns the chunk's statistics, to be set on its metadata before the
// pager closes (unset when the column keeps none).
func (c *listColumn) writeChunk(pager file.PageWriter, col arrow.Array) (metadata.EncodedStatistics, error) {
	list, ok := col.(*array.List)
	if ok {
		switch values := list.ListValues().(type) {
		case *array.Int32:
			return writeListChunk(c, pager, list, values.Int32Values())
		case *array.Int64:
			return writeListChunk(c, pager, list, values.Int64Values())
		}
	}
	return metadata.EncodedStatistics{}, fmt.Errorf("list column %s: unexpected array %s", c.path, col.DataType())
}

// listCursor walks the levels of a list array: row i, its j-th level.
type listCursor struct {
	rows listRows
	i, j int
	// The current row's values [start, end), read at its first level,
	// and whether it is a null list.
	start, end int64
	null       bool
}

// writeListChunk writes the list whose element values are values (the
// child array's, from its first) as arrow-go's column writer would.
func writeListChunk[T deltaInt](c *listColumn, pager file.PageWriter, list *array.List, values []T) (metadata.EncodedStatistics, error) {
	var pageStats, chunkStats minMaxStatistics[T]
	if c.props.StatisticsEnabledFor(c.path) && c.descr.SortOrder() != schema.SortUNKNOWN {
		pageStats = metadata.NewStatistics(c.descr, c.props.Allocator()).(minMaxStatistics[T])
		chunkStats = metadata.NewStatistics(c.descr, c.props.Allocator()).(minMaxStatistics[T])
	}
	var (
		cur      = listCursor{rows: newListRows(list, c.maxDef == 2)}
		rows     = list.Len()
		batch    = int(c.props.WriteBatchSize())
		pageSize = c.props.DataPageSize()
		maxStats = int(c.props.MaxStatsSizeFor(c.path))
		signed   = c.descr.SortOrder() == schema.SortSIGNED
		width    = int64(binary.Size(T(0)))
		// The open page: its levels, its values (from firstValue in
		// values) and the rows that start in it; rowsBefore start in the
		// pages before.
		levels, rowsIn, rowsBefore int
		firstValue, pageValues     = int64(-1), int64(0)
	)
	c.rep.reset(1, c.repOut[:0])
	c.def.reset(c.maxDef, c.defOut[:0])
	// advance feeds up to want levels to the level encoders and returns
	// how many there were.
	advance := func(want int) (int, error) {
		got := 0
		for got < want && cur.i < rows {
			if cur.j == 0 {
				var err error
				if cur.start, cur.end, cur.null, err = cur.rows.row(cur.i); err != nil {
					return got, err
				}
				rowsIn++
				if cur.start == cur.end {
					level := c.maxDef - 1 // an empty list
					if cur.null {
						level = 0
					}
					c.rep.put(0, 1)
					c.def.put(uint64(level), 1)
					cur.i++
					got++
					continue
				}
				if firstValue < 0 {
					firstValue = cur.start
				}
			}
			take := min(int(cur.end-cur.start)-cur.j, want-got)
			if cur.j == 0 {
				c.rep.put(0, 1)
				c.rep.put(1, take-1)
			} else {
				c.rep.put(1, take)
			}
			c.def.put(uint64(c.maxDef), take)
			pageValues += int64(take)
			cur.j += take
			got += take
			if cur.j == int(cur.end-cur.start) {
				cur.i, cur.j = cur.i+1, 0
			}
		}
		return got, nil
	}
	flush := func() error {
		c.repOut, c.defOut = c.rep.finish(), c.def.finish()
		page := c.page[:0]
		page = binary.LittleEndian.AppendUint32(page, uint32(len(c.repOut)))
		page = append(page, c.repOut...)
		page = binary.LittleEndian.AppendUint32(page, uint32(len(c.defOut)))
		page = append(page, c.defOut...)
		var vals []T
		if pageValues > 0 {
			vals = values[firstValue : firstValue+pageValues]
			page = appendLittleEndian(page, vals)
		}
		c.page = page

		var stats metadata.EncodedStatistics
		if pageStats != nil {
			pageStats.IncNulls(int64(levels) - pageValues)
			pageStats.IncNumValues(pageValues)
			if len(vals) > 0 {
				lo, hi := vals[0], vals[0]
				for _, v := range vals {
					lo, hi = min(lo, v), max(hi, v)
				}
				pageStats.SetMinMax(lo, hi)
			}
			var err error
			if stats, err = pageStatistics(pageStats, chunkStats, maxStats, signed); err != nil {
				return err
			}
		}
		err := writeDataPage(pager, &c.compressed, page, parquet.Encodings.Plain, levels, stats, rowsBefore)
		if pageValues > 0 {
			firstValue += pageValues
		}
		rowsBefore += rowsIn
		levels, rowsIn, pageValues = 0, 0, 0
		c.rep.reset(1, c.repOut[:0])
		c.def.reset(c.maxDef, c.defOut[:0])
		return err
	}
	for cur.i < rows {
		got, err := advance(batch)
		if err != nil {
			return metadata.EncodedStatistics{}, err
		}
		levels += got
		if pageValues*width >= pageSize {
			if err := flush(); err != nil {
				return metadata.EncodedStatistics{}, err
			}
		}
	}
	if levels > 0 {
		if err := flush(); err != nil {
			return metadata.EncodedStatistics{}, err
		}
	}
	if chunkStats == nil || rows == 0 {
		return metadata.EncodedStatistics{}, nil
	}
	stats, err := chunkStats.Encode()
	stats.ApplyStatSizeLimits(maxStats)
	stats.Signed = signed
	return stats, err
}

// appendLittleEndian appends vals PLAIN encoded: each value's bytes,
// least significant first.
func appendLittleEndian[T deltaInt](dst []byte, vals []T) []byte {
	switch vals := any(vals).(type) {
	case []int32:
		return append(dst, arrow.Int32Traits.CastToBytes(vals)...)
	case []int64:
		return append(dst, arrow.Int64Traits.CastToBytes(vals)...)
	}
	panic("tables: PLAIN values of an unexpected type")
}
