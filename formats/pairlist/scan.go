package pairlist

import (
	"os"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/tables"
)

// Scan streams the pair list in f, calling fn for every pair in file order
// with its 1-based row (for CSV, the line; the header is line 1). A file
// that starts with a table magic of the formats registry (Parquet, Arrow
// IPC) is read as a table by its name, f.Name(), which is how its errors
// name it; any other file as CSV from f's current offset. Errors are the
// readers' own (*formats.ParseError for CSV, "tables: ..." for tables)
// and fn's, unwrapped. Memory is one record batch or chunk of text.
func Scan(f *os.File, fn func(row, source, target int64) error) error {
	if isTable(f) {
		return tables.ScanPairs(f.Name(), fn)
	}
	return formats.ReadPairsCSV(f, f.Name(), fn)
}

// isTable reports whether f starts with the magic of a table format. A
// file too short to hold one, or one that cannot be read, is left to the
// CSV reader, whose error then says what is wrong.
func isTable(f *os.File) bool {
	table, _ := formats.Lookup(string(formats.KindTable))
	longest := 0
	for _, m := range table.Magic {
		longest = max(longest, len(m.Bytes))
	}
	head := make([]byte, longest)
	n, _ := f.ReadAt(head, 0)
	_, ok := table.MatchMagic(head[:n])
	return ok
}
