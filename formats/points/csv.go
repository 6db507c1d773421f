package points

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/formats"
)

// readCSV reads a file of layout l in CSV from r, name being its path.
func readCSV(r io.Reader, name string, l layout) (*columns, error) {
	c := &columns{}
	var cols, coordCols []int // coordCols[k] is the column of coordRoles[k]
	coordRoles := l[1:]
	coords := make([]blocks[float64], len(l)-1)
	row := make([]float64, len(l)-1) // one line's coordinates, kept only if all are good
	ids := newCSVIDs()
	header := func(line int64, fields [][]byte) error {
		names := make([]string, len(fields))
		for i, f := range fields {
			names[i] = string(f)
		}
		var err error
		if cols, err = l.findColumns(names); err != nil {
			return &formats.ParseError{File: name, Line: line, Msg: err.Error()}
		}
		c.idName, coordCols = names[cols[colID]], cols[1:]
		return nil
	}
	line := func(line int64, fields [][]byte) error {
		id := fields[cols[colID]]
		if len(id) == 0 {
			return &formats.ParseError{File: name, Line: line, Msg: "the id is empty"}
		}
		for k, at := range coordCols {
			var msg string
			if row[k], msg = parseCoordinate(&coordRoles[k], fields[at]); msg != "" {
				return &formats.ParseError{File: name, Line: line, Msg: msg}
			}
		}
		ids.add(id)
		for k, v := range row {
			coords[k].add(v)
		}
		return nil
	}
	if err := formats.ScanCSV(r, name, header, line); err != nil {
		return nil, err
	}
	c.ids = ids.array()
	c.coords = make([][]float64, len(coords))
	for k := range coords {
		c.coords[k] = coords[k].flat()
	}
	return c, nil
}

// parseCoordinate reads a value of the coordinate role r in field: NaN for
// an empty field (a null), else a decimal number in the role's range. A
// message says what is wrong.
func parseCoordinate(r *role, field []byte) (float64, string) {
	if len(field) == 0 {
		return math.NaN(), ""
	}
	v, err := parseFloat(field)
	if err != nil {
		return 0, fmt.Sprintf("%s %s is not a number", r.name(), quoteField(field))
	}
	return v, r.checkCoordinate(v)
}

// quoteField renders a field for an error message, cut short so that a
// hostile line cannot produce a huge message.
func quoteField(f []byte) string {
	const limit = 40
	if len(f) > limit {
		return strconv.Quote(string(f[:limit])) + "..."
	}
	return strconv.Quote(string(f))
}

// csvIDs collects the ids of a CSV file, whose type is known only at its
// end: int64 if every id is a decimal integer, else string. It keeps the
// text of every id, since a later non-integer id makes the column string
// and "007" must then stay "007", and the integers while there is no such
// id, so that an integer column needs no second parse.
type csvIDs struct {
	// text holds the ids one after another; ends[i] is where id i ends.
	text blocks[byte]
	ends blocks[int64]
	// ints are the ids as integers while allInt holds.
	ints   blocks[int64]
	allInt bool
}

func newCSVIDs() *csvIDs { return &csvIDs{allInt: true} }

// add appends the id in field.
func (c *csvIDs) add(field []byte) {
	c.text.addAll(field)
	c.ends.add(int64(c.text.len()))
	if !c.allInt {
		return
	}
	v, ok := parseID(field)
	if !ok {
		c.allInt, c.ints = false, blocks[int64]{}
		return
	}
	c.ints.add(v)
}

// array returns the ids as an Arrow array: int64, else string, or
// large_string for over 2 GiB of text.
func (c *csvIDs) array() arrow.Array {
	if c.allInt {
		ints := c.ints.flat()
		return newArray(arrow.PrimitiveTypes.Int64, len(ints), arrow.Int64Traits.CastToBytes(ints))
	}
	text, ends := c.text.flat(), c.ends.flat()
	n := len(ends)
	if len(text) > math.MaxInt32 {
		offsets := make([]int64, n+1)
		copy(offsets[1:], ends)
		return newArray(arrow.BinaryTypes.LargeString, n, arrow.Int64Traits.CastToBytes(offsets), text)
	}
	offsets := make([]int32, n+1)
	for i, end := range ends {
		offsets[i+1] = int32(end)
	}
	return newArray(arrow.BinaryTypes.String, n, arrow.Int32Traits.CastToBytes(offsets), text)
}

// newArray makes an array of n values without nulls over Go-allocated
// buffers, which the garbage collector frees.
func newArray(dt arrow.DataType, n int, buffers ...[]byte) arrow.Array {
	bufs := []*memory.Buffer{nil}
	for _, b := range buffers {
		bufs = append(bufs, memory.NewBufferBytes(b))
	}
	data := array.NewData(dt, n, bufs, nil, 0, 0)
	defer data.Release() // the array holds its own reference
	return array.MakeFromData(data)
}
