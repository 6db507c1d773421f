package tables

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The nested columns columnsWriter writes are one level deep: a list of a
// flat type (a route's vertex ids) or a struct of flat fields (a route's
// bounding box). Their Parquet levels are computed here straight from
// the arrays, as pqarrow's path builder computes them for the same
// shapes (its multipathLevelBuilder is not exported): the same levels,
// the same leaf values and the same leaf nullability go to arrow-go's
// column writer, so the pages are the same bytes.

// flatType reports whether t is a leaf type columnsWriter writes.
func flatType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.STRING, arrow.BINARY,
		arrow.LARGE_STRING, arrow.LARGE_BINARY, arrow.DATE32, arrow.TIMESTAMP:
		return true
	}
	return false
}

// leafCount returns the Parquet leaves of a field columnsWriter writes,
// or 0 for one it does not: a flat field is one leaf, a list of a flat
// element one, a struct of flat fields one a field.
func leafCount(f arrow.Field) int {
	if hasExtension(f) {
		return 0
	}
	switch t := f.Type.(type) {
	case *arrow.ListType:
		if elem := t.ElemField(); flatType(elem.Type) && !hasExtension(elem) {
			return 1
		}
		return 0
	case *arrow.StructType:
		if t.NumFields() == 0 {
			return 0
		}
		for _, child := range t.Fields() {
			if !flatType(child.Type) || hasExtension(child) {
				return 0
			}
		}
		return t.NumFields()
	}
	if flatType(f.Type) {
		return 1
	}
	return 0
}

// leafLevels are what arrow-go's column writer takes for one leaf of a
// nested column: the leaf's values, their levels (nil where the leaf has
// none of a kind), and whether the leaf is nullable in its parent and
// holds nulls (pqarrow's leafIsNullable).
type leafLevels struct {
	values   arrow.Array // a slice the caller releases
	def, rep []int16
	nullable bool
}

// listRows reads a list array's rows in order, as Parquet stores them:
// a row's values follow the last non-empty row's with nothing between
// (the values are written one after another, the rows told apart by
// their levels alone), and a null list covers no value. The array's
// nulls count only where the field is nullable, as pqarrow reads them.
type listRows struct {
	list     *array.List
	nullable bool
	next     int64 // where the next non-empty row's values must start; -1 before the first
}

func newListRows(list *array.List, nullable bool) listRows {
	return listRows{list: list, nullable: nullable, next: -1}
}

// row returns row i's values [start, end) and whether it is a null list.
// Rows must be read in order.
func (l *listRows) row(i int) (start, end int64, null bool, err error) {
	start, end = l.list.ValueOffsets(i)
	if l.nullable && l.list.IsNull(i) {
		if start != end {
			return 0, 0, true, fmt.Errorf("a null list at row %d covers %d values", i, end-start)
		}
		return start, end, true, nil
	}
	if start != end {
		if l.next >= 0 && start != l.next {
			return 0, 0, false, fmt.Errorf("the lists' values are not contiguous at row %d", i)
		}
		l.next = end
	}
	return start, end, false, nil
}

// listLevels returns the levels of a list column of a flat element, in
// def and rep (reused when long enough). Parquet's three-level list: a
// null list (only when the field is nullable) is definition level 0; an
// empty list the list's own level; an element the list's level plus one,
// plus one more when it is present in a nullable element field. Each
// row's first level has repetition 0, the rest 1.
func listLevels(list *array.List, listNullable bool, def, rep []int16) (leafLevels, error) {
	elemNullable := list.DataType().(*arrow.ListType).ElemField().Nullable
	values := list.ListValues()
	if !elemNullable && values.NullN() != 0 {
		return leafLevels{}, fmt.Errorf("a list's elements are not nullable but hold %d nulls", values.NullN())
	}
	var (
		emptyDef   = int16(0)
		elemNull   int16
		elemDef    int16
		checkNulls = elemNullable && values.NullN() != 0
	)
	if listNullable {
		emptyDef = 1
	}
	elemNull = emptyDef + 1
	elemDef = elemNull
	if elemNullable {
		elemDef++
	}
	// The elements' validity bits, read straight from the bitmap: with a
	// call through the array's interface and two appends for every
	// element, this function took 41.7 of the 139.7 cpu-s of Gnutella31's
	// wide all-pairs run (3.9 billion cells) on four H200s.
	var valid []byte
	validAt := int64(0)
	if checkNulls {
		valid, validAt = values.NullBitmapBytes(), int64(values.Data().Offset())
	}
	rows := newListRows(list, listNullable)
	// Every row holds one level (null or empty) or one per value: room
	// for all of them at once.
	def = slices.Grow(def[:0], list.Len()+values.Len())
	rep = slices.Grow(rep[:0], list.Len()+values.Len())
	lo, hi := int64(-1), int64(0)
	for i := range list.Len() {
		start, end, null, err := rows.row(i)
		switch {
		case err != nil:
			return leafLevels{}, err
		case null:
			def, rep = append(def, 0), append(rep, 0)
			continue
		case start == end:
			def, rep = append(def, emptyDef), append(rep, 0)
			continue
		}
		if lo < 0 {
			lo = start
		}
		hi = end
		at, count := len(def), int(end-start)
		def, rep = def[:at+count], rep[:at+count]
		rep[at] = 0
		for k := at + 1; k < at+count; k++ {
			rep[k] = 1
		}
		row := def[at:]
		if !checkNulls {
			for k := range row {
				row[k] = elemDef
			}
			continue
		}
		// A present element is one level above a null one.
		for k := range row {
			b := validAt + start + int64(k)
			row[k] = elemNull + int16(valid[b>>3]>>(b&7)&1)
		}
	}
	if lo < 0 {
		lo, hi = 0, 0
	}
	return leafLevels{
		values:   array.NewSlice(values, lo, hi),
		def:      def,
		rep:      rep,
		nullable: elemNullable && values.NullN() != 0,
	}, nil
}

// structLevels returns the levels of child k of a struct column of flat
// fields, in def (reused when long enough): 0 for a null struct (only
// when the field is nullable), the struct's level for a null child, and
// the struct's plus one for a present child of a nullable field. A leaf
// that can be neither null nor under a null has no levels. A null struct
// holds nulls in its required fields too (Arrow's struct builder appends
// them); only a null in a required field of a present struct is refused.
func structLevels(st *array.Struct, structNullable bool, k int, def []int16) (leafLevels, error) {
	field := st.DataType().(*arrow.StructType).Field(k)
	child := st.Field(k)
	values := array.NewSlice(child, 0, int64(child.Len()))
	levels := leafLevels{values: values, nullable: field.Nullable && child.NullN() != 0}
	maxDef := int16(0)
	if structNullable {
		maxDef++
	}
	if field.Nullable {
		maxDef++
	}
	var (
		nullStruct = structNullable && st.NullN() != 0
		nullChild  = child.NullN() != 0
	)
	if maxDef == 0 {
		if nullChild {
			values.Release()
			return leafLevels{}, fmt.Errorf("struct field %q is not nullable but holds %d nulls", field.Name, child.NullN())
		}
		return levels, nil
	}
	def = def[:0]
	for i := range st.Len() {
		switch {
		case nullStruct && st.IsNull(i):
			def = append(def, 0)
		case nullChild && child.IsNull(i):
			if !field.Nullable {
				values.Release()
				return leafLevels{}, fmt.Errorf("struct field %q is not nullable but is null at row %d", field.Name, i)
			}
			def = append(def, maxDef-1)
		default:
			def = append(def, maxDef)
		}
	}
	levels.def = def
	return levels, nil
}
