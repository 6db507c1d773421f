package points

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// PairTable is a file of trips between places: one row per trip, in file
// order (duplicates kept: a row is a request).
type PairTable struct {
	// Path is the file the table was read from.
	Path string
	// IDs is the id column as the file holds it, typed as Table.IDs is.
	// Never null. The table holds a reference, which Release gives up.
	IDs arrow.Array
	// IDName is the id column's name as the file writes it ("id", "ID").
	IDName string
	// OriginLon, OriginLat, DestinationLon and DestinationLat are each
	// trip's two ends in degrees, NaN where the file has a null: such a
	// trip is later answered with a reason instead of a distance.
	OriginLon, OriginLat, DestinationLon, DestinationLat []float64
	// Others are the file's other columns, in file order, one value per trip: as the file
	// holds them for Parquet and Arrow IPC (any type, nulls kept; the batches' chunks
	// concatenated into one array each); as strings for CSV (an empty field is null).
	// They let an output carry a trip's mode, purpose or weight beside its answer.
	Others []arrow.Field // name (as written) and type of each
	// OtherColumns holds the values of Others[j] at j. The table holds a
	// reference to each, which Release gives up.
	OtherColumns []arrow.Array
}

// ReadPairs reads the file of trips at path, told from its bytes and held
// to the rules as Read does; the package documentation gives the
// columns. O(rows) memory: the ids, four float64 columns and the file's
// other columns, plus one record batch or chunk of text while reading
// (for Parquet and Arrow IPC the kept columns' chunks until the end).
func ReadPairs(path string) (*PairTable, error) {
	return readPairs(path, memory.DefaultAllocator)
}

// readPairs is ReadPairs with the allocator of the id column and the
// other columns (and of Arrow IPC decoding), so that tests can check that
// nothing leaks.
func readPairs(path string, mem memory.Allocator) (*PairTable, error) {
	c, err := readColumns(path, pairLayout, true, mem)
	if err != nil {
		return nil, err
	}
	return &PairTable{
		Path: path, IDs: c.ids, IDName: c.idName,
		OriginLon: c.coords[0], OriginLat: c.coords[1],
		DestinationLon: c.coords[2], DestinationLat: c.coords[3],
		Others: c.others, OtherColumns: c.otherCols,
	}, nil
}

// Len is the number of trips.
func (t *PairTable) Len() int { return len(t.OriginLon) }

// Release gives up the table's references to its ids and other columns;
// the table is empty afterwards.
func (t *PairTable) Release() {
	if t.IDs != nil {
		t.IDs.Release()
	}
	for _, a := range t.OtherColumns {
		a.Release()
	}
	t.IDs, t.OriginLon, t.OriginLat, t.DestinationLon, t.DestinationLat = nil, nil, nil, nil, nil
	t.Others, t.OtherColumns = nil, nil
}

// IDText renders the id of trip i as text, for messages and reasons that
// name a trip.
func (t *PairTable) IDText(i int) string { return t.IDs.ValueStr(i) }
