package places

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/snap"
)

// answerColumns builds the distance and reason columns of a batch of
// answers straight into their buffers (a table of places is millions of
// rows): a distance, or a null distance and the reason.
type answerColumns struct {
	values      []int64
	valid       []byte
	reasonValid []byte
	offsets     []int32
	data        []byte
	rows, nulls int
}

func newAnswerColumns(n int) *answerColumns {
	return &answerColumns{
		values: make([]int64, n), valid: make([]byte, bitutil.BytesForBits(int64(n))),
		reasonValid: make([]byte, bitutil.BytesForBits(int64(n))), offsets: make([]int32, n+1),
	}
}

// add appends the answer d of the trip from p to q.
func (c *answerColumns) add(d int64, p, q *snap.Place) {
	k := c.rows
	if d != NoPath {
		c.values[k] = d
		bitutil.SetBit(c.valid, k)
	} else {
		c.nulls++
		bitutil.SetBit(c.reasonValid, k)
		c.data = append(c.data, reasonFor(p, q)...)
	}
	c.offsets[k+1] = int32(len(c.data))
	c.rows++
}

// arrays returns the two columns; the caller releases them.
func (c *answerColumns) arrays() (distance, reason arrow.Array) {
	n := c.rows
	distance = array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, n,
		[]*memory.Buffer{memory.NewBufferBytes(c.valid), memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(c.values[:n]))}, nil, c.nulls, 0))
	reason = array.NewStringData(array.NewData(arrow.BinaryTypes.String, n,
		[]*memory.Buffer{memory.NewBufferBytes(c.reasonValid), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.offsets[:n+1])), memory.NewBufferBytes(c.data)}, nil, n-c.nulls, 0))
	return distance, reason
}

// reasonFor says why the trip from p to q has no answer.
func reasonFor(p, q *snap.Place) string {
	switch {
	case !p.OK:
		return "origin: " + p.Reason
	case !q.OK:
		return "destination: " + q.Reason
	}
	return ReasonNoRoute
}
