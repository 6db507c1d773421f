package datasets

import (
	"testing"

	"github.com/pathflow/pathflow/formats"
)

// TestManifestFormatsAreInTheRegistry checks that every dataset names a
// graph format of the formats registry, the one its graph file's name
// says, and that its coordinates file is named as coordinates: a dataset
// read under input.format auto gives the graph its entry describes.
func TestManifestFormatsAreInTheRegistry(t *testing.T) {
	for _, d := range All() {
		f, ok := formats.Lookup(string(d.Format))
		if !ok || !f.Graph {
			t.Errorf("%s: format %q is not a graph format of the registry", d.Name, d.Format)
			continue
		}
		if byName, ext, ok := formats.ByName(d.Graph.Name); !ok || byName.Kind != d.Format {
			t.Errorf("%s: %s (%q) names format %s, the entry says %s", d.Name, d.Graph.Name, ext, byName.Kind, d.Format)
		}
		if d.Coordinates != nil {
			if co, _, ok := formats.ByName(d.Coordinates.Name); !ok || co.Kind != formats.KindCoordinates {
				t.Errorf("%s: coordinates file %s names format %s", d.Name, d.Coordinates.Name, co.Kind)
			}
		}
	}
}
