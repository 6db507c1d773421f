package points

import (
	"fmt"
	"slices"
	"strings"
)

// role is a column a file must have: the id, or one coordinate.
type role struct {
	// names are the names that give a column this role, lower-case; the
	// first is the one messages use.
	names []string
	// limit is, for a coordinate, the largest magnitude it may have: 180
	// for a longitude, 90 for a latitude. The id has none.
	limit float64
}

// layout is the columns of one kind of file: the id at colID, then the
// coordinates, which the readers return in this order.
type layout []role

// colID is the id's place in every layout.
const colID = 0

var idRole = role{names: []string{"id"}}

// placeLayout is the columns of a places file, read by Read.
var placeLayout = layout{
	idRole,
	{names: []string{"lon", "longitude"}, limit: 180},
	{names: []string{"lat", "latitude"}, limit: 90},
}

// pairLayout is the columns of a file of trips, read by ReadPairs; from
// and to are accepted for origin and destination since trip tables often
// use them.
var pairLayout = layout{
	idRole,
	{names: []string{"origin_lon", "from_lon"}, limit: 180},
	{names: []string{"origin_lat", "from_lat"}, limit: 90},
	{names: []string{"destination_lon", "to_lon"}, limit: 180},
	{names: []string{"destination_lat", "to_lat"}, limit: 90},
}

// findColumns returns, per role of l, the index of the column in names
// that plays it. A missing role, or two columns for one role, is an error
// listing the file's columns, since a misspelt header is the usual cause.
func (l layout) findColumns(names []string) ([]int, error) {
	idx := make([]int, len(l))
	for r := range idx {
		idx[r] = -1
	}
	for i, name := range names {
		r := l.roleOf(name)
		if r < 0 {
			continue
		}
		if idx[r] >= 0 {
			return nil, fmt.Errorf("columns %q and %q both give the %s", names[idx[r]], name, l[r].describe())
		}
		idx[r] = i
	}
	for r, i := range idx {
		if i < 0 {
			return nil, fmt.Errorf("no %s column (the file has %s)", l[r].describe(), listNames(names))
		}
	}
	return idx, nil
}

// otherColumns is the columns, of a file with n, that findColumns gave no
// role: cols are its answer.
func otherColumns(n int, cols []int) []int {
	others := make([]int, 0, n)
	for i := range n {
		if !slices.Contains(cols, i) {
			others = append(others, i)
		}
	}
	return others
}

// roleOf is the role in l of a column named name, or -1 for none.
func (l layout) roleOf(name string) int {
	for r, ro := range l {
		for _, n := range ro.names {
			if strings.EqualFold(name, n) {
				return r
			}
		}
	}
	return -1
}

// name is the role's name in messages about a value: "lon".
func (r role) name() string { return r.names[0] }

// describe names a role as errors about columns write it: "lon (or
// longitude)".
func (r role) describe() string {
	if len(r.names) == 1 {
		return r.names[0]
	}
	return r.names[0] + " (or " + strings.Join(r.names[1:], ", ") + ")"
}

// withArticle is the role's name after "a" or "an": "a lon", "an
// origin_lon".
func (r role) withArticle() string {
	if strings.ContainsRune("aeiou", rune(r.name()[0])) {
		return "an " + r.name()
	}
	return "a " + r.name()
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

// checkCoordinate says what is wrong with a value v of the coordinate
// role r, or "" when it lies within -r.limit..r.limit. NaN, a null,
// passes: the row is kept and goes unanswered.
func (r role) checkCoordinate(v float64) string {
	if v < -r.limit || v > r.limit {
		return fmt.Sprintf("%s %v is outside -%v..%v", r.name(), v, r.limit, r.limit)
	}
	return ""
}
