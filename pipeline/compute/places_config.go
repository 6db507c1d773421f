package compute

import (
	"math"
	"slices"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/pipeline/output"
)

// The keys of a table of places.
const (
	KeyOrigins       = "compute.origins"
	KeyDestinations  = "compute.destinations"
	KeySnapMaxMetres = "compute.snap_max_metres"
)

// DefaultSnapMaxMetres is how far from the nearest road a place may lie
// and still be answered: a kilometre, beyond a rural address's drive.
const DefaultSnapMaxMetres = 1000

// PlacesSpec are the settings of a table of places.
type PlacesSpec struct {
	// Origins and Destinations are the files of places (formats/points):
	// an id column, lon and lat. Both or neither.
	Origins, Destinations string
	// SnapMaxMetres is the farthest a place may be from the road it
	// snaps to (a whole number of metres in the settings).
	SnapMaxMetres float64
}

// Enabled reports whether the run answers a table of places.
func (p PlacesSpec) Enabled() bool { return p.Origins != "" }

func placeKeys() []config.Key {
	return []config.Key{
		{Name: KeyOrigins, Default: "", Path: true, Flag: "origins", Usage: "origins as places: a Parquet, Arrow IPC or CSV file with columns id (any type), lon, lat; with compute.destinations, an origins x destinations table keyed by the ids, the places snapped onto the road network"},
		{Name: KeyDestinations, Default: "", Path: true, Flag: "destinations", Usage: "destinations as places, as compute.origins"},
		{Name: KeySnapMaxMetres, Default: DefaultSnapMaxMetres, Flag: "snap-max-metres", Usage: "a place farther than this from every road gets no answer (a null row with the reason)"},
	}
}

// readPlaces reads the place keys and records in vs what they exclude: a
// table of places names its own rows and columns, has no vertex parents,
// and is one file.
func readPlaces(vs *config.Values, cfg *Config, formatName, layoutName string) PlacesSpec {
	p := PlacesSpec{
		Origins:       vs.Path(KeyOrigins, false),
		Destinations:  vs.Path(KeyDestinations, false),
		SnapMaxMetres: float64(vs.Int64(KeySnapMaxMetres, 0, math.MaxInt32)),
	}
	if (p.Origins == "") != (p.Destinations == "") {
		vs.Fail(KeyOrigins, "%s and %s go together: set both", KeyOrigins, KeyDestinations)
	}
	if !p.Enabled() {
		return p
	}
	switch {
	case !slices.Equal(cfg.Sources, []string{"0"}) || !slices.Equal(cfg.Targets, []string{"all"}) || cfg.PairList != "":
		vs.Fail(KeyOrigins, "places name the rows and columns: leave %s, %s and %s unset", KeySources, KeyTargets, KeyPairList)
	case len(cfg.Pairs) > 0 || cfg.Summary || !cfg.Distances:
		vs.Fail(KeyOrigins, "a table of places is written alone: it takes no %s, %s or %s", KeyPaths, KeySummary, KeyDistances)
	case cfg.MaxDistance != results.NoCutoff:
		vs.Fail(KeyOrigins, "a table of places takes no %s", KeyMaxDistance)
	case layoutName != "long" || formatName == string(formats.KindDistanceMatrix):
		vs.Fail(KeyOrigins, "a table of places is a row per pair: it needs %s: long and %s parquet or arrow", KeyLayout, output.KeyOutputFormat)
	}
	return p
}
