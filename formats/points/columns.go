package points

import (
	"fmt"
	"strings"
)

// The column roles of a places file, indexes of columnNames.
const (
	colID = iota
	colLon
	colLat
	numColumns
)

// columnNames lists, per role, the names that give a column that role,
// lower-case: the first is the name errors use.
var columnNames = [numColumns][]string{
	colID:  {"id"},
	colLon: {"lon", "longitude"},
	colLat: {"lat", "latitude"},
}

// findColumns returns, per role, the index of the column in names that
// plays it. A missing role, or two columns for one role, is an error
// listing the file's columns, since a misspelt header is the usual cause.
func findColumns(names []string) ([numColumns]int, error) {
	idx := [numColumns]int{-1, -1, -1}
	for i, name := range names {
		role := roleOf(name)
		if role < 0 {
			continue
		}
		if idx[role] >= 0 {
			return idx, fmt.Errorf("columns %q and %q both give the %s", names[idx[role]], name, roleName(role))
		}
		idx[role] = i
	}
	for role, i := range idx {
		if i < 0 {
			return idx, fmt.Errorf("no %s column (the file has %s)", roleName(role), listNames(names))
		}
	}
	return idx, nil
}

// roleOf is the role a column named name plays, or -1 for none.
func roleOf(name string) int {
	for role, names := range columnNames {
		for _, n := range names {
			if strings.EqualFold(name, n) {
				return role
			}
		}
	}
	return -1
}

// roleName names a role as errors write it: "lon (or longitude)".
func roleName(role int) string {
	names := columnNames[role]
	if len(names) == 1 {
		return names[0]
	}
	return names[0] + " (or " + strings.Join(names[1:], ", ") + ")"
}

// listNames renders a file's column names for an error message.
func listNames(names []string) string {
	if len(names) == 0 {
		return "no columns"
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	return "columns " + strings.Join(quoted, ", ")
}

// checkCoordinate says what is wrong with a coordinate v of role (colLon
// or colLat), or "" when it is a longitude in -180..180 or a latitude in
// -90..90. NaN, a null, passes: the place is kept and goes unanswered.
func checkCoordinate(role int, v float64) string {
	limit := 180.0
	if role == colLat {
		limit = 90
	}
	if v < -limit || v > limit {
		return fmt.Sprintf("%s %v is outside -%v..%v", columnNames[role][0], v, limit, limit)
	}
	return ""
}
