package points

import (
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/tables"
)

// columns is what the readers take from a file of some layout: the ids
// and, in the layout's order, each coordinate.
type columns struct {
	// ids is never null; the caller owns its reference.
	ids arrow.Array
	// idName is the id column's name as the file writes it.
	idName string
	// coords[r-1] holds the values of role r of the layout, NaN where
	// null.
	coords [][]float64
	// others and otherCols are the file's columns that play no role of the
	// layout, in file order, when the caller asked for them; the caller
	// owns the arrays' references.
	others    []arrow.Field
	otherCols []arrow.Array
}

// readColumns reads the file at path in layout l, its format told from
// its bytes: Parquet (it starts with PAR1), Arrow IPC (ARROW1), else CSV,
// plain or gzip-compressed. With keepOthers it also keeps the columns that
// play no role, which a file of places has no use for but a file of trips
// carries into its answers. mem allocates the id column and the kept
// columns (and Arrow IPC decoding), so that tests can check that nothing
// leaks.
func readColumns(path string, l layout, keepOthers bool, mem memory.Allocator) (*columns, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("points: %w", err)
	}
	defer f.Close()
	if _, err := tables.DetectFormat(f); err == nil {
		return readTable(path, l, keepOthers, mem)
	}
	return readCSV(f, path, l, keepOthers)
}
