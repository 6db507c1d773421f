package pairlist

import (
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/tables"
)

// Scan streams the pair list in f, calling fn for every pair in file order
// with its 1-based row (for CSV, the line; the header is line 1), and
// returns the file's other columns (every column but source and target),
// one value per pair in file order, for an answer to carry beside its
// pairs: with the file's types and nulls for Parquet and Arrow IPC, as
// text for CSV (an empty field is a null), as a file of trips keeps them
// (package points). The caller releases them. A file that starts with a
// table format's magic (tables.DetectFormat: Parquet, Arrow IPC) is read
// as a table by its name, f.Name(), which is how its errors name it; any
// other file as CSV from f's current offset. A file too short to hold a
// magic, or one that cannot be read, is left to the CSV reader, whose
// error then says what is wrong. Errors are the readers' own
// (*formats.ParseError for CSV, "tables: ..." for tables) and fn's,
// unwrapped. Memory is the other columns, plus one record batch or chunk
// of text.
func Scan(f *os.File, fn func(row, source, target int64) error) (tables.OtherColumns, error) {
	if _, err := tables.DetectFormat(f); err == nil {
		return tables.ScanPairs(f.Name(), fn)
	}
	var text []*array.StringBuilder
	defer func() {
		for _, b := range text {
			b.Release()
		}
	}()
	names, err := formats.ReadPairsCSV(f, f.Name(), func(line, source, target int64, others [][]byte) error {
		if text == nil {
			text = newTextColumns(len(others))
		}
		for j, v := range others {
			if len(v) == 0 {
				text[j].AppendNull()
			} else {
				text[j].BinaryBuilder.Append(v)
			}
		}
		return fn(line, source, target)
	})
	if err != nil {
		return tables.OtherColumns{}, err
	}
	if text == nil { // a header and no pair
		text = newTextColumns(len(names))
	}
	out := tables.OtherColumns{}
	for j, name := range names {
		out.Fields = append(out.Fields, arrow.Field{Name: name, Type: arrow.BinaryTypes.String, Nullable: true})
		out.Arrays = append(out.Arrays, text[j].NewArray())
	}
	return out, nil
}

// newTextColumns returns a builder for each of n text columns.
func newTextColumns(n int) []*array.StringBuilder {
	b := make([]*array.StringBuilder, n)
	for j := range b {
		b[j] = array.NewStringBuilder(memory.DefaultAllocator)
	}
	return b
}
