package pairlist

import (
	"os"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/tables"
)

// Scan streams the pair list in f, calling fn for every pair in file order
// with its 1-based row (for CSV, the line; the header is line 1). A file
// that starts with a table format's magic (tables.DetectFormat: Parquet,
// Arrow IPC) is read as a table by its name, f.Name(), which is how its
// errors name it; any other file as CSV from f's current offset. A file
// too short to hold a magic, or one that cannot be read, is left to the
// CSV reader, whose error then says what is wrong. Errors are the
// readers' own (*formats.ParseError for CSV, "tables: ..." for tables)
// and fn's, unwrapped. Memory is one record batch or chunk of text.
func Scan(f *os.File, fn func(row, source, target int64) error) error {
	if _, err := tables.DetectFormat(f); err == nil {
		return tables.ScanPairs(f.Name(), fn)
	}
	return formats.ReadPairsCSV(f, f.Name(), fn)
}
