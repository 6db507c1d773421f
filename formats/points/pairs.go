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
}

// ReadPairs reads the file of trips at path, told from its bytes and held
// to the rules as Read does; the package documentation gives the
// columns. O(rows) memory: the ids and four float64 columns, plus one
// record batch or chunk of text while reading.
func ReadPairs(path string) (*PairTable, error) {
	return readPairs(path, memory.DefaultAllocator)
}

// readPairs is ReadPairs with the allocator of the id column (and of
// Arrow IPC decoding), so that tests can check that nothing leaks.
func readPairs(path string, mem memory.Allocator) (*PairTable, error) {
	c, err := readColumns(path, pairLayout, mem)
	if err != nil {
		return nil, err
	}
	return &PairTable{
		Path: path, IDs: c.ids, IDName: c.idName,
		OriginLon: c.coords[0], OriginLat: c.coords[1],
		DestinationLon: c.coords[2], DestinationLat: c.coords[3],
	}, nil
}

// Len is the number of trips.
func (t *PairTable) Len() int { return len(t.OriginLon) }

// Release gives up the table's reference to its ids; the table is empty
// afterwards.
func (t *PairTable) Release() {
	if t.IDs != nil {
		t.IDs.Release()
	}
	t.IDs, t.OriginLon, t.OriginLat, t.DestinationLon, t.DestinationLat = nil, nil, nil, nil, nil
}

// IDText renders the id of trip i as text, for messages and reasons that
// name a trip.
func (t *PairTable) IDText(i int) string { return t.IDs.ValueStr(i) }
