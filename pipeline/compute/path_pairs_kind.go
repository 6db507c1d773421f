package compute

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// tripColumns are the columns that make a file of path requests a list
// of trips between places (formats/points: origin_lon, or from_lon),
// matched as that reader matches them, whatever their case.
var tripColumns = []string{"origin_lon", "from_lon"}

// pathRequestsAreTrips reports whether the file of path requests at path
// is a list of trips between places, as compute.place_pairs reads it,
// rather than pairs of vertices: whether it has an origin_lon (or
// from_lon) column. A file with that and a source column too is refused,
// since either reading would drop half of what it says. Only the header
// (CSV) or the schema (Parquet, Arrow IPC) is read. O(columns).
func pathRequestsAreTrips(path string) (bool, error) {
	names, err := columnNames(path)
	if err != nil {
		return false, err
	}
	trips := slices.ContainsFunc(names, func(n string) bool {
		return slices.ContainsFunc(tripColumns, func(t string) bool { return strings.EqualFold(n, t) })
	})
	if trips && slices.Contains(names, "source") {
		return false, &stageerr.InputError{Err: fmt.Errorf("pipeline: path requests %s (%s) have both a source column (pairs of vertices) and an origin_lon column (trips between places): keep one kind", path, KeyPathPairs)}
	}
	return trips, nil
}

// errHeaderRead stops a CSV scan once the header is read.
var errHeaderRead = errors.New("header read")

// columnNames returns the column names of the table file at path: a
// Parquet or Arrow IPC file's schema, a CSV file's header (gzip told from
// the bytes). A file that cannot be read as a table gives no names, and
// the reader of pairs of vertices then says what is wrong with it.
func columnNames(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &stageerr.InputError{Err: input.PathError(KeyPathPairs, path, err)}
	}
	defer f.Close()
	var names []string
	if _, err := tables.DetectFormat(f); err == nil {
		cfg, err := tables.NewConfig(nil)
		if err != nil {
			return nil, err
		}
		tr, err := tables.OpenTable(path, cfg)
		if err != nil {
			return nil, nil
		}
		defer tr.Close()
		for _, field := range tr.Schema().Fields() {
			names = append(names, field.Name)
		}
		return names, nil
	}
	err = formats.ScanCSV(f, path, func(_ int64, fields [][]byte) error {
		for _, field := range fields {
			names = append(names, string(field))
		}
		return errHeaderRead
	}, func(int64, [][]byte) error { return nil })
	if err != nil && !errors.Is(err, errHeaderRead) {
		return nil, nil
	}
	return names, nil
}
