package points

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/formats"
)

// readCSV reads a file of layout l in CSV from r, name being its path;
// with keepOthers it keeps the columns that play no role as text, an
// empty field being a null.
func readCSV(r io.Reader, name string, l layout, keepOthers bool) (*columns, error) {
	c := &columns{}
	var cols, coordCols []int // coordCols[k] is the column of coordRoles[k]
	var others []int          // the kept columns; otherText[j] collects column others[j]
	var otherText []csvStrings
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
		if keepOthers {
			others = otherColumns(len(names), cols)
			otherText = make([]csvStrings, len(others))
			c.others = make([]arrow.Field, len(others))
			for j, at := range others {
				c.others[j] = arrow.Field{Name: names[at], Type: arrow.BinaryTypes.String, Nullable: true}
			}
		}
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
		for j, at := range others {
			if len(fields[at]) == 0 {
				otherText[j].addNull()
			} else {
				otherText[j].add(fields[at])
			}
		}
		return nil
	}
	if err := formats.ScanCSV(r, name, header, line); err != nil {
		return nil, err
	}
	c.ids = ids.array()
	if keepOthers {
		c.otherCols = make([]arrow.Array, len(otherText))
		for j := range otherText {
			c.otherCols[j] = otherText[j].array()
		}
	}
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
	text csvStrings
	// ints are the ids as integers while allInt holds.
	ints   blocks[int64]
	allInt bool
}

func newCSVIDs() *csvIDs { return &csvIDs{allInt: true} }

// add appends the id in field.
func (c *csvIDs) add(field []byte) {
	c.text.add(field)
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
	return c.text.array()
}
