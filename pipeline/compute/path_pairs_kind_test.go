package compute

import (
	"strings"
	"testing"

	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
)

// TestPathRequestsAreTrips tells the two kinds of path request file
// apart by their headers: pairs of vertices, trips between places under
// either spelling and any case, and a file naming both kinds, refused.
func TestPathRequestsAreTrips(t *testing.T) {
	for _, c := range []struct {
		name, text string
		trips      bool
		err        string
	}{
		{"vertices", "source,target,tag\n1,2,a\n", false, ""},
		{"trips", "id,origin_lon,origin_lat,destination_lon,destination_lat\na,1,2,3,4\n", true, ""},
		{"from and to", "\ufeffTrip,From_Lon,from_lat,to_lon,to_lat\n", true, ""},
		{"both", "source,target,origin_lon\n1,2,3\n", false, "both a source column"},
		{"neither", "a,b\n1,2\n", false, ""},
	} {
		got, err := pathRequestsAreTrips(stagetest.WriteFile(t, c.name+".csv", c.text))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case got != c.trips:
			t.Errorf("%s: trips %v, want %v", c.name, got, c.trips)
		}
	}
}
