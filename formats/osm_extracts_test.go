package formats_test

import (
	"testing"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/formats/osmroads/osmroadstest"
)

// TestDetectOpenStreetMapExtracts detects the real extracts that
// github.com/paulmach/osm ships (data (c) OpenStreetMap contributors, ODbL).
func TestDetectOpenStreetMapExtracts(t *testing.T) {
	for _, name := range []string{osmroadstest.Delaware, osmroadstest.Andorra} {
		det, err := formats.DetectFile(osmroadstest.Extract(t, name))
		if err != nil || det.Kind != formats.KindOSM {
			t.Errorf("%s: %+v, %v; want osm", name, det, err)
		}
	}
}
