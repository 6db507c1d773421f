package tables

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Column names of the graph tables.
const (
	ColSrc    = "src"
	ColDst    = "dst"
	ColWeight = "weight"

	ColID         = "id"
	ColOriginalID = "original_id"
	ColX          = "x"
	ColY          = "y"
)

// reservedPrefix marks schema metadata keys that Arrow and Parquet writers
// set themselves (ARROW:schema); callers may not use it.
const reservedPrefix = "ARROW:"

var (
	int32Type = arrow.PrimitiveTypes.Int32
	int64Type = arrow.PrimitiveTypes.Int64
)

// SchemaWith builds a schema of fields carrying meta, its keys in sorted
// order so that the same metadata gives the same bytes.
func SchemaWith(meta map[string]string, fields ...arrow.Field) *arrow.Schema {
	if len(meta) == 0 {
		return arrow.NewSchema(fields, nil)
	}
	md := arrow.MetadataFrom(meta) // sorted by key: deterministic bytes
	return arrow.NewSchema(fields, &md)
}

// CheckMeta rejects caller metadata that uses the key prefix the formats
// reserve for themselves.
func CheckMeta(meta map[string]string) error {
	for k := range meta {
		if strings.HasPrefix(k, reservedPrefix) {
			return fmt.Errorf("tables: metadata key %q uses the reserved prefix %q", k, reservedPrefix)
		}
	}
	return nil
}

// UserMeta returns the schema metadata minus the keys the formats add.
func UserMeta(s *arrow.Schema) map[string]string {
	md := s.Metadata()
	out := make(map[string]string, md.Len())
	for i, k := range md.Keys() {
		if !strings.HasPrefix(k, reservedPrefix) {
			out[k] = md.Values()[i]
		}
	}
	return out
}

// EdgesSchema is the schema of the edges table: one row per arc.
func EdgesSchema(meta map[string]string) *arrow.Schema {
	return SchemaWith(meta,
		arrow.Field{Name: ColSrc, Type: int32Type},
		arrow.Field{Name: ColDst, Type: int32Type},
		arrow.Field{Name: ColWeight, Type: int32Type},
	)
}

// VerticesSchema is the schema of the vertices table: one row per vertex,
// with the x and y columns only when coordinates are known.
func VerticesSchema(withCoordinates bool, meta map[string]string) *arrow.Schema {
	fields := []arrow.Field{
		{Name: ColID, Type: int32Type},
		{Name: ColOriginalID, Type: int64Type},
	}
	if withCoordinates {
		fields = append(fields,
			arrow.Field{Name: ColX, Type: int32Type},
			arrow.Field{Name: ColY, Type: int32Type})
	}
	return SchemaWith(meta, fields...)
}

// ColumnIndices maps each wanted column name to its index in a read schema,
// checking types; a missing optional column maps to -1.
func ColumnIndices(s *arrow.Schema, want []arrow.Field, optional ...string) ([]int, error) {
	idx := make([]int, len(want))
	for i, f := range want {
		found := s.FieldIndices(f.Name)
		switch {
		case len(found) == 0 && slices.Contains(optional, f.Name):
			idx[i] = -1
			continue
		case len(found) == 0:
			return nil, fmt.Errorf("tables: no column %q", f.Name)
		case len(found) > 1:
			return nil, fmt.Errorf("tables: column %q appears %d times", f.Name, len(found))
		}
		got := s.Field(found[0]).Type
		if !sameType(got, f.Type) {
			return nil, fmt.Errorf("tables: column %q has type %s, want %s", f.Name, got, f.Type)
		}
		idx[i] = found[0]
	}
	return idx, nil
}

// sameType compares types ignoring the names of list elements, which other
// writers spell "item" or "element".
func sameType(got, want arrow.DataType) bool {
	gl, ok1 := got.(*arrow.ListType)
	wl, ok2 := want.(*arrow.ListType)
	if ok1 && ok2 {
		return arrow.TypeEqual(gl.Elem(), wl.Elem())
	}
	return arrow.TypeEqual(got, want)
}
