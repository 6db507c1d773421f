package nodetest

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Table is a table as a reader run in node prints it in JSON: an object
// with "columns", "types" and "rows". What the values and type names are
// is the reader's; the packages that run one say.
type Table struct {
	// Columns are the column names.
	Columns []string `json:"columns"`
	// Types are the reader's type names of the columns.
	Types []string `json:"types"`
	// Rows are the rows, each with one value per column.
	Rows [][]any `json:"rows"`
}

// Maps returns the rows as maps from column name to value.
func (t Table) Maps() []map[string]any {
	out := make([]map[string]any, len(t.Rows))
	for i, row := range t.Rows {
		m := make(map[string]any, len(row))
		for j, v := range row {
			m[t.Columns[j]] = v
		}
		out[i] = m
	}
	return out
}

// Column returns the values of the named column, or nil when there is no
// such column.
func (t Table) Column(name string) []any {
	for j, c := range t.Columns {
		if c == name {
			col := make([]any, len(t.Rows))
			for i, row := range t.Rows {
				col[i] = row[j]
			}
			return col
		}
	}
	return nil
}

// ParseNumbers replaces the json.Numbers in the rows of a table decoded
// with UseNumber, as Number does, and names the column of a bad one.
func (t Table) ParseNumbers(wide bool) error {
	for _, row := range t.Rows {
		for j, v := range row {
			cv, err := Number(v, wide)
			if err != nil {
				return fmt.Errorf("column %q: %w", t.Columns[j], err)
			}
			row[j] = cv
		}
	}
	return nil
}

// Number replaces the json.Numbers in v, in place in lists and objects:
// literals with a '.' or an exponent (the readers write floats so) become
// float64 and integer literals int64, or with wide *big.Int where they do
// not fit (without wide, that is an error).
func Number(v any, wide bool) (any, error) {
	switch v := v.(type) {
	case json.Number:
		s := string(v)
		if strings.ContainsAny(s, ".eE") {
			return strconv.ParseFloat(s, 64)
		}
		if !wide {
			return strconv.ParseInt(s, 10, 64)
		}
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
		if b, ok := new(big.Int).SetString(s, 10); ok {
			return b, nil
		}
		return nil, fmt.Errorf("bad number %q", s)
	case []any:
		for i, x := range v {
			cx, err := Number(x, wide)
			if err != nil {
				return nil, err
			}
			v[i] = cx
		}
	case map[string]any:
		for k, x := range v {
			cx, err := Number(x, wide)
			if err != nil {
				return nil, err
			}
			v[k] = cx
		}
	}
	return v, nil
}
