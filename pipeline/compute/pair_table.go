package compute

import (
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
)

// pairTable is how a pair list's distances table is written: one row per
// row of the file, in file order, its columns named as the file's are:
//
//	source, target   the row's vertices in the ids the file used: dense
//	                 int32, or with compute.ids: original the input's own
//	                 int64 ids (ids set)
//	the file's other columns, as it gave them (Parquet and Arrow IPC: their
//	                 types and nulls; CSV: text, an empty field null)
//	distance         int64, null where the target is unreachable or beyond
//	                 the cutoff; the weights' unit in the field metadata
//	                 "unit" (tables.DistanceField)
//	<metric>         with compute.metrics: the metric summed along the
//	                 path, named after it, null where distance is
//	parent           with parents: the target's parent on the path, in the
//	                 ids of source and target; null for the source itself
//	                 and where distance is null
type pairTable struct {
	dir  string
	meta map[string]string
	// ids, when set, turns dense ids into the input's (compute.ids:
	// original).
	ids  *input.VertexIDs
	opts []tables.Option
	// metric names the metric column, when the run reports one.
	metric resultfiles.MetricColumn
}

// write writes the table of list's rows, dist and parent (nil: no parent
// column) being each row's answer, into the folder t.dir, and returns its
// parts in order (tables.WriteRowParts). A file column named as one the
// table writes is refused.
func (t *pairTable) write(list *pairList, dist, metric []int64, parent []int32) ([]tables.FileInfo, error) {
	idType := arrow.DataType(arrow.PrimitiveTypes.Int32)
	if t.ids != nil {
		idType = arrow.PrimitiveTypes.Int64
	}
	others, err := list.outputFields(parent != nil, t.metric.Name)
	if err != nil {
		return nil, err
	}
	fields := append([]arrow.Field{{Name: tables.ColPairSource, Type: idType}, {Name: tables.ColPairTarget, Type: idType}}, others...)
	fields = append(fields, tables.DistanceField(arrow.Field{Name: resultfiles.ColDistance, Type: arrow.PrimitiveTypes.Int64, Nullable: true}, t.meta))
	if metric != nil {
		fields = append(fields, t.metric.Field())
	}
	if parent != nil {
		fields = append(fields, arrow.Field{Name: resultfiles.ColParent, Type: idType, Nullable: true})
	}
	schema := tables.SchemaWith(t.meta, fields...)
	if err := os.MkdirAll(t.dir, 0o755); err != nil {
		return nil, err
	}
	enc := tables.ParquetEncoding{Delta: []string{resultfiles.ColDistance}}
	if metric != nil {
		enc.Delta = append(enc.Delta, t.metric.Name)
	}
	return tables.WriteRowParts(t.dir, schema, enc, list.len(), func(lo, hi int) (arrow.RecordBatch, error) {
		cols := []arrow.Array{t.idColumn(list.source[lo:hi], nil), t.idColumn(list.target[lo:hi], nil)}
		cols = append(cols, list.others.Slice(lo, hi)...)
		cols = append(cols, valuesWhere(dist[lo:hi], dist[lo:hi]))
		if metric != nil {
			cols = append(cols, valuesWhere(metric[lo:hi], dist[lo:hi]))
		}
		if parent != nil {
			cols = append(cols, t.idColumn(parent[lo:hi], parentValidity(parent[lo:hi])))
		}
		defer func() {
			for _, c := range cols {
				c.Release()
			}
		}()
		return array.NewRecordBatch(schema, cols, int64(hi-lo)), nil
	}, t.opts...)
}

// idColumn is the column of the vertices vs in the table's ids, null
// where valid (nil: none null) has its bit clear.
func (t *pairTable) idColumn(vs []int32, valid []byte) arrow.Array {
	nulls := 0
	var validity *memory.Buffer
	if valid != nil {
		nulls = len(vs) - bitutil.CountSetBits(valid, 0, len(vs))
		validity = memory.NewBufferBytes(valid)
	}
	if t.ids == nil {
		values := append([]int32(nil), vs...)
		return array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, len(vs),
			[]*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(values))}, nil, nulls, 0))
	}
	values := make([]int64, len(vs))
	for i, v := range vs {
		if valid == nil || bitutil.BitIsSet(valid, i) {
			values[i] = t.ids.Original(v)
		}
	}
	return array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, len(vs),
		[]*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(values))}, nil, nulls, 0))
}

// parentValidity marks the parents that are vertices, not paths.NoParent.
func parentValidity(parent []int32) []byte {
	valid := make([]byte, bitutil.BytesForBits(int64(len(parent))))
	for i, p := range parent {
		if p != paths.NoParent {
			bitutil.SetBit(valid, i)
		}
	}
	return valid
}

// valuesWhere is a column of values, null where dist (of the same rows)
// is paths.Unreachable: the distance column itself, or the metric's.
func valuesWhere(v, dist []int64) arrow.Array {
	valid := make([]byte, bitutil.BytesForBits(int64(len(dist))))
	values := make([]int64, len(dist))
	nulls := 0
	for i, d := range dist {
		if d == paths.Unreachable {
			nulls++
			continue
		}
		values[i] = v[i]
		bitutil.SetBit(valid, i)
	}
	return array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, len(dist),
		[]*memory.Buffer{memory.NewBufferBytes(valid), memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(values))}, nil, nulls, 0))
}
