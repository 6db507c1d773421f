// Package pairlisttest writes pair lists in each kind of file a pair list
// may be (CSV, Parquet, Arrow IPC) for the tests of the readers and of the
// stages that take them, so that all of them read the same layouts.
package pairlisttest

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// CSV returns pairs as the text of a CSV pair list with a header.
func CSV(pairs [][2]int64) string {
	var b strings.Builder
	b.WriteString("source,target\n")
	for _, p := range pairs {
		fmt.Fprintf(&b, "%d,%d\n", p[0], p[1])
	}
	return b.String()
}

// WriteCSV writes pairs to path as a CSV pair list with a header and
// returns path.
func WriteCSV(t testing.TB, path string, pairs [][2]int64) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(CSV(pairs)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// WriteParquet writes pairs to path as a Parquet pair list whose int64
// columns are target and source, in that order, beside an ignored string
// column, so that readers must find the columns by name and widen
// nothing; it returns path.
func WriteParquet(t testing.TB, path string, pairs [][2]int64) string {
	t.Helper()
	rec := record(pairs, []arrow.Field{
		{Name: "target", Type: arrow.PrimitiveTypes.Int64},
		{Name: "note", Type: arrow.BinaryTypes.String},
		{Name: "source", Type: arrow.PrimitiveTypes.Int64},
	}, func(b *array.RecordBuilder, p [2]int64) {
		b.Field(0).(*array.Int64Builder).Append(p[1])
		b.Field(1).(*array.StringBuilder).Append("x")
		b.Field(2).(*array.Int64Builder).Append(p[0])
	})
	defer rec.Release()
	return tablestest.WriteParquet(t, path, rec, nil)
}

// WriteArrow writes pairs to path as an Arrow IPC pair list with int32
// columns source and target, which readers must widen; it returns path.
func WriteArrow(t testing.TB, path string, pairs [][2]int64) string {
	t.Helper()
	rec := record(pairs, []arrow.Field{
		{Name: "source", Type: arrow.PrimitiveTypes.Int32},
		{Name: "target", Type: arrow.PrimitiveTypes.Int32},
	}, func(b *array.RecordBuilder, p [2]int64) {
		b.Field(0).(*array.Int32Builder).Append(int32(p[0]))
		b.Field(1).(*array.Int32Builder).Append(int32(p[1]))
	})
	defer rec.Release()
	return tablestest.WriteArrowIPC(t, path, rec)
}

// record builds one record batch of fields, a row per pair filled by
// appendPair. The caller releases it.
func record(pairs [][2]int64, fields []arrow.Field, appendPair func(b *array.RecordBuilder, p [2]int64)) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	for _, p := range pairs {
		appendPair(b, p)
	}
	return b.NewRecordBatch()
}
