package tables

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/arrowslices"
	"github.com/pathflow/pathflow/internal/graph"
)

// Geographic coordinates live in memory as int32 units of 10^-7 degree
// (graph.UnitsPerDegree) and in the tables as float64 degrees, the type
// every analyst's tool reads as a number. The two convert exactly both
// ways: units/1e7 is the double nearest the decimal degrees, and its
// product with 1e7 lies within an ulp of the integer, far less than the
// half unit math.Round needs, so a rewritten table has the same bytes.

// degreesArray returns a float64 array of units in degrees, in a buffer
// from mem.
func degreesArray(mem memory.Allocator, units []int32) arrow.Array {
	buf, deg := arrowslices.Float64Buffer(mem, len(units))
	defer buf.Release()
	for i, u := range units {
		deg[i] = float64(u) / graph.UnitsPerDegree
	}
	return arrowslices.Primitive(float64Type, len(units), nil, 0, buf)
}

// degreesLimit is the bound of a lon or lat column's absolute value.
func degreesLimit(column string) float64 {
	if column == ColLat {
		return 90
	}
	return 180
}

// unitsFromDegrees fills dst with the values of src, degrees of the
// column named column, in units of 10^-7 degree, rounding to the nearest
// unit (a table of another writer may hold finer values). A value that
// is not a number or lies beyond the column's bound is refused; first is
// the row of src[0], for the error.
func unitsFromDegrees(dst []int32, src []float64, column string, first int64) error {
	limit := degreesLimit(column)
	for i, d := range src {
		if !(d >= -limit && d <= limit) { // NaN fails both
			return fmt.Errorf("tables: row %d: %s %v is not within ±%v degrees", first+int64(i), column, d, limit)
		}
		dst[i] = int32(math.Round(d * graph.UnitsPerDegree))
	}
	return nil
}
