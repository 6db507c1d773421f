package points

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/tables"
)

// readTable reads a file of layout l in Parquet or Arrow IPC at path, one
// record batch at a time: the id column of each batch, and with
// keepOthers each column that plays no role, is kept until the end, when
// its chunks are copied into one array (so no batch's unwanted columns,
// nor an Arrow IPC batch's body, stay alive), and the coordinates are
// copied out as float64.
func readTable(path string, l layout, keepOthers bool, mem memory.Allocator) (c *columns, err error) {
	cfg, err := tables.NewConfig([]tables.Option{tables.WithAllocator(mem)})
	if err != nil {
		return nil, err
	}
	defer tables.RecoverInto(&err, path)
	tr, err := tables.OpenTable(path, cfg)
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	schema := tr.Schema()
	names := make([]string, schema.NumFields())
	for i, f := range schema.Fields() {
		names[i] = f.Name
	}
	cols, err := l.findColumns(names)
	if err != nil {
		return nil, fmt.Errorf("points: %s: %w", path, err)
	}
	if err := checkTypes(schema, l, cols); err != nil {
		return nil, fmt.Errorf("points: %s: %w", path, err)
	}
	c = &columns{idName: names[cols[colID]], coords: make([][]float64, len(l)-1)}
	var others []int
	if keepOthers {
		others = otherColumns(len(names), cols)
	}
	// kept[j] holds the chunks of column keptCols[j]: the id, then
	// others.
	keptCols := append([]int{cols[colID]}, others...)
	kept := make([][]arrow.Array, len(keptCols))
	defer func() {
		for _, chunks := range kept {
			for _, a := range chunks {
				a.Release()
			}
		}
	}()
	coords := make([]arrow.Array, len(l)-1)
	var rows int64 // before the batch being read
	for {
		rec, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		ids := rec.Column(cols[colID])
		for k := range coords {
			coords[k] = rec.Column(cols[k+1])
		}
		err = c.appendBatch(l, ids, coords)
		if err == nil {
			for j, col := range keptCols {
				a := rec.Column(col)
				a.Retain()
				kept[j] = append(kept[j], a)
			}
		}
		rec.Release()
		if err != nil {
			var re *rowError
			if errors.As(err, &re) {
				return nil, fmt.Errorf("points: %s: row %d: %s", path, rows+re.row+1, re.msg)
			}
			return nil, fmt.Errorf("points: %s: %w", path, err)
		}
		rows += int64(ids.Len())
	}
	if c, err = c.concatKept(kept, schema, cols[colID], others, mem); err != nil {
		return nil, fmt.Errorf("points: %s: %w", path, err)
	}
	return c, nil
}

// concatKept sets c's ids, from kept[0], and its other columns, from
// kept[1+j] for column others[j] of schema, each copied into one array.
// On an error it releases whatever it made.
func (c *columns) concatKept(kept [][]arrow.Array, schema *arrow.Schema, idCol int, others []int, mem memory.Allocator) (*columns, error) {
	ids, err := concatChunks(kept[0], schema.Field(idCol).Type, mem)
	if err != nil {
		return nil, err
	}
	c.ids = ids
	c.others, c.otherCols = make([]arrow.Field, 0, len(others)), make([]arrow.Array, 0, len(others))
	for j, col := range others {
		f := schema.Field(col)
		a, err := concatChunks(kept[1+j], f.Type, mem)
		if err != nil {
			c.release()
			return nil, fmt.Errorf("column %q: %w", f.Name, err)
		}
		c.others, c.otherCols = append(c.others, f), append(c.otherCols, a)
	}
	return c, nil
}

// release gives up c's references to its arrays.
func (c *columns) release() {
	if c.ids != nil {
		c.ids.Release()
	}
	for _, a := range c.otherCols {
		a.Release()
	}
	c.ids, c.otherCols = nil, nil
}

// checkTypes refuses, before any row is read, an id column that is
// neither integer nor string and coordinates that are not numbers.
func checkTypes(schema *arrow.Schema, l layout, cols []int) error {
	id := schema.Field(cols[colID])
	if !arrow.IsInteger(id.Type.ID()) && id.Type.ID() != arrow.STRING && id.Type.ID() != arrow.LARGE_STRING {
		return fmt.Errorf("column %q is %s: an id must be an integer or a string", id.Name, id.Type)
	}
	for r := 1; r < len(l); r++ {
		f := schema.Field(cols[r])
		if !isNumber(f.Type) {
			return fmt.Errorf("column %q is %s: %s must be floating point or an integer", f.Name, f.Type, l[r].withArticle())
		}
	}
	return nil
}

// rowError is a problem at row (0-based) of a record batch, placed in
// the file by readTable.
type rowError struct {
	row int64
	msg string
}

func (e *rowError) Error() string { return fmt.Sprintf("row %d of the batch: %s", e.row, e.msg) }

// appendBatch checks the ids of one record batch and appends its
// coordinates, coords[k] being role k+1 of l, to c.
func (c *columns) appendBatch(l layout, ids arrow.Array, coords []arrow.Array) error {
	if k := firstNull(ids); k >= 0 {
		return &rowError{int64(k), "the id is null"}
	}
	if k := firstEmpty(ids); k >= 0 {
		return &rowError{int64(k), "the id is empty"}
	}
	for r, a := range coords {
		base := len(c.coords[r])
		c.coords[r] = append(c.coords[r], make([]float64, a.Len())...)
		out := c.coords[r][base:]
		widenNumbers(a, out)
		hasNulls := a.NullN() > 0
		for k, v := range out {
			if hasNulls && a.IsNull(k) {
				out[k] = math.NaN()
				continue
			}
			if msg := l[r+1].checkCoordinate(v); msg != "" {
				return &rowError{int64(k), msg}
			}
		}
	}
	return nil
}

// firstNull is the first null row of a, or -1.
func firstNull(a arrow.Array) int {
	if a.NullN() == 0 {
		return -1
	}
	for k := range a.Len() {
		if a.IsNull(k) {
			return k
		}
	}
	return -1
}

// firstEmpty is the first row of a string column a holding "", or -1.
func firstEmpty(a arrow.Array) int {
	s, ok := a.(interface{ ValueLen(int) int })
	if !ok {
		return -1
	}
	for k := range a.Len() {
		if s.ValueLen(k) == 0 {
			return k
		}
	}
	return -1
}

// isNumber reports whether a column of type dt holds numbers that
// widenNumbers reads.
func isNumber(dt arrow.DataType) bool {
	return arrow.IsInteger(dt.ID()) || dt.ID() == arrow.FLOAT32 || dt.ID() == arrow.FLOAT64
}

// widenNumbers writes the values of the number column a into out, as long
// as a; a null slot gets whatever its memory holds.
func widenNumbers(a arrow.Array, out []float64) {
	switch c := a.(type) {
	case *array.Float64:
		copy(out, c.Float64Values())
	case *array.Float32:
		widen(out, c.Float32Values())
	case *array.Int8:
		widen(out, c.Int8Values())
	case *array.Int16:
		widen(out, c.Int16Values())
	case *array.Int32:
		widen(out, c.Int32Values())
	case *array.Int64:
		widen(out, c.Int64Values())
	case *array.Uint8:
		widen(out, c.Uint8Values())
	case *array.Uint16:
		widen(out, c.Uint16Values())
	case *array.Uint32:
		widen(out, c.Uint32Values())
	case *array.Uint64:
		widen(out, c.Uint64Values())
	default:
		panic(fmt.Sprintf("points: %s is not a number type", a.DataType())) // checkTypes refused it
	}
}

func widen[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32](out []float64, in []T) {
	for k, v := range in {
		out[k] = float64(v)
	}
}

// concatChunks copies the chunks of a column into one array of type dt,
// an empty one for a table without rows.
func concatChunks(chunks []arrow.Array, dt arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	if len(chunks) == 0 {
		return array.MakeArrayOfNull(mem, dt, 0), nil
	}
	return array.Concatenate(chunks, mem)
}
