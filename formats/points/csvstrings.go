package points

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// csvStrings collects a column of text from a CSV file, whose length is
// known only at its end: the values one after another, where each ends,
// and which rows are null. Nulls are kept as a list of rows rather than a
// bitmap, since a column usually has few or none.
type csvStrings struct {
	// text holds the values one after another; ends[i] is where value i
	// ends.
	text blocks[byte]
	ends blocks[int64]
	// nulls are the null rows, in order.
	nulls blocks[int64]
}

// add appends the value in field, which may be reused afterwards.
func (c *csvStrings) add(field []byte) {
	c.text.addAll(field)
	c.ends.add(int64(c.text.len()))
}

// addNull appends a null.
func (c *csvStrings) addNull() {
	c.nulls.add(int64(c.ends.len()))
	c.ends.add(int64(c.text.len()))
}

// array returns the column as an Arrow string array, or large_string for
// over 2 GiB of text, and empties c.
func (c *csvStrings) array() arrow.Array {
	text, ends, nulls := c.text.flat(), c.ends.flat(), c.nulls.flat()
	n := len(ends)
	var validity []byte
	if len(nulls) > 0 {
		validity = make([]byte, bitutil.BytesForBits(int64(n)))
		bitutil.SetBitsTo(validity, 0, int64(n), true)
		for _, row := range nulls {
			bitutil.ClearBit(validity, int(row))
		}
	}
	if len(text) > math.MaxInt32 {
		offsets := make([]int64, n+1)
		copy(offsets[1:], ends)
		return newArrayWithNulls(arrow.BinaryTypes.LargeString, n, validity, len(nulls), arrow.Int64Traits.CastToBytes(offsets), text)
	}
	offsets := make([]int32, n+1)
	for i, end := range ends {
		offsets[i+1] = int32(end)
	}
	return newArrayWithNulls(arrow.BinaryTypes.String, n, validity, len(nulls), arrow.Int32Traits.CastToBytes(offsets), text)
}

// newArray makes an array of n values without nulls over Go-allocated
// buffers, which the garbage collector frees.
func newArray(dt arrow.DataType, n int, buffers ...[]byte) arrow.Array {
	return newArrayWithNulls(dt, n, nil, 0, buffers...)
}

// newArrayWithNulls makes an array of n values, nulls of them null as the
// bitmap validity says (nil when none is), over Go-allocated buffers.
func newArrayWithNulls(dt arrow.DataType, n int, validity []byte, nulls int, buffers ...[]byte) arrow.Array {
	bufs := []*memory.Buffer{nil}
	if validity != nil {
		bufs[0] = memory.NewBufferBytes(validity)
	}
	for _, b := range buffers {
		bufs = append(bufs, memory.NewBufferBytes(b))
	}
	data := array.NewData(dt, n, bufs, nil, nulls, 0)
	defer data.Release() // the array holds its own reference
	return array.MakeFromData(data)
}
