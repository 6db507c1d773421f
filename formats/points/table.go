package points

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Table is a file of places: one row per place, in file order (duplicates
// kept: a row is a request).
type Table struct {
	// Path is the file the table was read from.
	Path string
	// IDs is the id column as the file holds it: for Parquet and Arrow
	// IPC any integer type, string or large_string; for CSV int64 when
	// every value parses as one, else string. Never null. The table holds
	// a reference, which Release gives up.
	IDs arrow.Array
	// IDName is the id column's name as the file writes it ("id", "ID").
	IDName string
	// Lon and Lat are each place's longitude and latitude in degrees, NaN
	// where the file has a null: such a place is later answered with a
	// reason instead of a distance.
	Lon, Lat []float64
}

// Read reads the places file at path, whose format is told from its bytes:
// Parquet (it starts with PAR1), Arrow IPC (ARROW1), else CSV, plain or
// gzip-compressed. The package documentation gives the columns and what
// is an error; errors name the file, and the row where there is one (for
// CSV the line, the header being line 1). O(rows) memory: the ids and two
// float64 columns, plus one record batch or chunk of text while reading.
func Read(path string) (*Table, error) {
	return read(path, memory.DefaultAllocator)
}

// read is Read with the allocator of the id column (and of Arrow IPC
// decoding), so that tests can check that nothing leaks.
func read(path string, mem memory.Allocator) (*Table, error) {
	c, err := readColumns(path, placeLayout, false, mem)
	if err != nil {
		return nil, err
	}
	return &Table{Path: path, IDs: c.ids, IDName: c.idName, Lon: c.coords[0], Lat: c.coords[1]}, nil
}

// Len is the number of places.
func (t *Table) Len() int { return len(t.Lon) }

// Release gives up the table's reference to its ids; the table is empty
// afterwards.
func (t *Table) Release() {
	if t.IDs != nil {
		t.IDs.Release()
	}
	t.IDs, t.Lon, t.Lat = nil, nil, nil
}

// IDText renders the id of place i as text, for messages and reasons that
// name a place.
func (t *Table) IDText(i int) string { return t.IDs.ValueStr(i) }
