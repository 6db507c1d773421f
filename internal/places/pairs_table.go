package places

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/snap"
	"github.com/pathflow/pathflow/internal/tables"
)

// WriteTrips writes the answers of a list of trips into the folder dir as
// its part files (tables.WriteRowParts, cut every configured part rows)
// and returns them in order: one row per trip in file order, its id (in the column the
// file named, with its type), the file's other columns as it gave them
// (others, one array of values per field, a value per trip), its distance
// (null where there is none, the unit in the field metadata:
// tables.DistanceField), with a metric its metric (metric is its field,
// the zero value for none; null where the distance is) and the reason
// there is none. ids are the trips' id column, answers a PairCombiner's.
// A file column named distance, reason or as the metric is refused: the
// output would hold two columns of one name.
func WriteTrips(dir string, ids arrow.Array, idName string, others []arrow.Field, otherCols []arrow.Array, origins, destinations []snap.Place, answers Answers, metric arrow.Field, meta map[string]string, opts ...tables.Option) ([]tables.FileInfo, error) {
	n := len(answers.Weights)
	if ids.Len() != n || len(origins) != n || len(destinations) != n {
		return nil, fmt.Errorf("places: %d ids, %d origins and %d destinations for %d trips", ids.Len(), len(origins), len(destinations), n)
	}
	if (metric.Name != "") != (answers.Metrics != nil) || (answers.Metrics != nil && len(answers.Metrics) != n) {
		return nil, fmt.Errorf("places: the metric %q with %d metrics for %d trips", metric.Name, len(answers.Metrics), n)
	}
	kept := tables.OtherColumns{Fields: others, Arrays: otherCols}
	reserved := []string{ColDistance, ColReason}
	if metric.Name != "" {
		reserved = append(reserved, metric.Name)
	}
	otherFields, err := kept.OutputFields("the file of trips", n, reserved...)
	if err != nil {
		return nil, fmt.Errorf("places: %w", err)
	}
	fields := append([]arrow.Field{{Name: idName, Type: ids.DataType()}}, otherFields...)
	if fields, err = withAnswerFields(fields, metric, meta); err != nil {
		return nil, err
	}
	schema := tables.SchemaWith(meta, fields...)
	return tables.WriteRowParts(dir, schema, answerEncoding(metric.Name), n, func(lo, hi int) (arrow.RecordBatch, error) {
		return tripBatch(schema, ids, kept, origins, destinations, answers, lo, hi), nil
	}, opts...)
}

// tripBatch is the record of trips lo..hi-1: their ids and other columns
// (slices of the file's columns, no copy), distances, metrics and
// reasons.
func tripBatch(schema *arrow.Schema, ids arrow.Array, others tables.OtherColumns, origins, destinations []snap.Place, answers Answers, lo, hi int) arrow.RecordBatch {
	answerCols := newAnswerColumns(hi-lo, answers.Metrics != nil)
	for i := lo; i < hi; i++ {
		var m int64
		if answers.Metrics != nil {
			m = answers.Metrics[i]
		}
		answerCols.add(answers.Weights[i], m, &origins[i], &destinations[i])
	}
	cols := append([]arrow.Array{array.NewSlice(ids, int64(lo), int64(hi))}, others.Slice(lo, hi)...)
	cols = append(cols, answerArrays(answerCols)...)
	defer releaseAll(cols)
	return array.NewRecordBatch(schema, cols, int64(hi-lo))
}
