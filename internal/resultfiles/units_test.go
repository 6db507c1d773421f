package resultfiles

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/internal/tables"
)

// TestDistanceColumnsSayTheirUnit: every column of distances of the result
// tables carries the unit the schema metadata names for the weights, and
// "weight" when the input names none; no other column carries one.
func TestDistanceColumnsSayTheirUnit(t *testing.T) {
	for _, tc := range []struct {
		meta map[string]string
		want string
	}{
		{map[string]string{tables.MetaWeightUnit: "ms", "k": "v"}, "ms"},
		{map[string]string{tables.MetaWeightUnit: "m"}, "m"},
		{map[string]string{"k": "v"}, tables.UnitWeight},
		{nil, tables.UnitWeight},
	} {
		for name, schema := range map[string]*arrow.Schema{
			"long":    ResultSchema(true, tc.meta),
			"wide":    WideResultSchema(true, tc.meta),
			"paths":   PathsSchema(OriginalIDs{}, tc.meta),
			"summary": SummarySchema(OriginalIDs{Write: true}, tc.meta),
		} {
			distances := map[string]bool{ColDistance: true, ColCost: true, ColEccentricity: true}
			seen := 0
			for _, f := range schema.Fields() {
				k := f.Metadata.FindKey(tables.FieldUnit)
				switch {
				case distances[f.Name] && (k < 0 || f.Metadata.Values()[k] != tc.want):
					t.Errorf("%s, meta %v: column %s has metadata %v, want unit %q", name, tc.meta, f.Name, f.Metadata, tc.want)
				case !distances[f.Name] && k >= 0:
					t.Errorf("%s: column %s says a unit", name, f.Name)
				}
				if distances[f.Name] {
					seen++
				}
			}
			if seen != 1 {
				t.Errorf("%s: %d columns of distances, want 1", name, seen)
			}
		}
	}
}
