package places

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/snap"
	"github.com/pathflow/pathflow/internal/tables"
)

// answerColumns builds the distance, metric and reason columns of a
// batch of answers straight into their buffers (a table of places is
// millions of rows): a distance and its metric, or null ones and the
// reason.
type answerColumns struct {
	values      []int64
	metrics     []int64 // nil when the run reports no metric
	valid       []byte
	reasonValid []byte
	offsets     []int32
	data        []byte
	rows, nulls int
}

func newAnswerColumns(n int, withMetric bool) *answerColumns {
	var metrics []int64
	if withMetric {
		metrics = make([]int64, n)
	}
	return &answerColumns{metrics: metrics,
		values: make([]int64, n), valid: make([]byte, bitutil.BytesForBits(int64(n))),
		reasonValid: make([]byte, bitutil.BytesForBits(int64(n))), offsets: make([]int32, n+1),
	}
}

// add appends the answer d of the trip from p to q, and its metric m
// (ignored without a metric column).
func (c *answerColumns) add(d, m int64, p, q *snap.Place) {
	k := c.rows
	if d != NoPath {
		c.values[k] = d
		if c.metrics != nil {
			c.metrics[k] = m
		}
		bitutil.SetBit(c.valid, k)
	} else {
		c.nulls++
		bitutil.SetBit(c.reasonValid, k)
		c.data = append(c.data, reasonFor(p, q)...)
	}
	c.offsets[k+1] = int32(len(c.data))
	c.rows++
}

// arrays returns the columns, the metric nil without one; the caller
// releases them. The metric is null where the distance is: the two share
// the validity bitmap.
func (c *answerColumns) arrays() (distance, metric, reason arrow.Array) {
	n := c.rows
	distance = array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, n,
		[]*memory.Buffer{memory.NewBufferBytes(c.valid), memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(c.values[:n]))}, nil, c.nulls, 0))
	if c.metrics != nil {
		metric = array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, n,
			[]*memory.Buffer{memory.NewBufferBytes(c.valid), memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(c.metrics[:n]))}, nil, c.nulls, 0))
	}
	reason = array.NewStringData(array.NewData(arrow.BinaryTypes.String, n,
		[]*memory.Buffer{memory.NewBufferBytes(c.reasonValid), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.offsets[:n+1])), memory.NewBufferBytes(c.data)}, nil, n-c.nulls, 0))
	return distance, metric, reason
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

// withAnswerFields appends the answer fields to fields: the distance (its
// unit from meta, tables.DistanceField), the metric when metric names
// one, and the reason. A metric named as another column of the table is
// refused: the output would hold two columns of one name.
func withAnswerFields(fields []arrow.Field, metric arrow.Field, meta map[string]string) ([]arrow.Field, error) {
	fields = append(fields, tables.DistanceField(arrow.Field{Name: ColDistance, Type: arrow.PrimitiveTypes.Int64, Nullable: true}, meta))
	if metric.Name != "" {
		for _, f := range append(fields, arrow.Field{Name: ColReason}) {
			if f.Name == metric.Name {
				return nil, fmt.Errorf("places: the metric %q has the name of the column %q", metric.Name, f.Name)
			}
		}
		fields = append(fields, metric)
	}
	return append(fields, arrow.Field{Name: ColReason, Type: arrow.BinaryTypes.String, Nullable: true}), nil
}

// answerArrays returns the arrays of the answer fields (withAnswerFields)
// of c; the caller releases them.
func answerArrays(c *answerColumns) []arrow.Array {
	dist, metric, reason := c.arrays()
	if metric == nil {
		return []arrow.Array{dist, reason}
	}
	return []arrow.Array{dist, metric, reason}
}

// answerEncoding delta-encodes the distance and the metric, when
// metricName names one, in Parquet: sums that vary little along a row.
func answerEncoding(metricName string) tables.ParquetEncoding {
	if metricName == "" {
		return tables.ParquetEncoding{Delta: []string{ColDistance}}
	}
	return tables.ParquetEncoding{Delta: []string{ColDistance, metricName}}
}

// releaseAll releases every array of cols.
func releaseAll(cols []arrow.Array) {
	for _, c := range cols {
		c.Release()
	}
}
