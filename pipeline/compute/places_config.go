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
	KeyPlacePairs    = "compute.place_pairs"
)

// DefaultSnapMaxMetres is how far from the nearest road a place may lie
// and still be answered: a kilometre, beyond a rural address's drive.
const DefaultSnapMaxMetres = 1000

// PlacesSpec are the settings of a table of places.
type PlacesSpec struct {
	// Origins and Destinations are the files of places (formats/points):
	// an id column, lon and lat. Both or neither.
	Origins, Destinations string
	// Pairs is a file of trips between places instead (formats/points):
	// an id column and both ends' coordinates.
	Pairs string
	// SnapMaxMetres is the farthest a place may be from the road it
	// snaps to (a whole number of metres in the settings).
	SnapMaxMetres float64
}

// Enabled reports whether the run answers places: a table of origins and
// destinations, or a list of trips.
func (p PlacesSpec) Enabled() bool { return p.Origins != "" || p.Pairs != "" }

func placeKeys() []config.Key {
	return []config.Key{
		{Name: KeyOrigins, Default: "", Path: true, Flag: "origins", Usage: "origins as places: a Parquet, Arrow IPC or CSV file with columns id (any type), lon, lat; with compute.destinations, an origins x destinations table keyed by the ids, the places snapped onto the road network"},
		{Name: KeyDestinations, Default: "", Path: true, Flag: "destinations", Usage: "destinations as places, as compute.origins"},
		{Name: KeyPlacePairs, Default: "", Path: true, Flag: "place-pairs", Usage: "trips between places: a Parquet, Arrow IPC or CSV file with columns id (any type), origin_lon, origin_lat, destination_lon, destination_lat; one row per trip, in file order, keyed by the id; excludes compute.origins and compute.destinations"},
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
		Pairs:         vs.Path(KeyPlacePairs, false),
		SnapMaxMetres: float64(vs.Int64(KeySnapMaxMetres, 0, math.MaxInt32)),
	}
	if (p.Origins == "") != (p.Destinations == "") {
		vs.Fail(KeyOrigins, "%s and %s go together: set both", KeyOrigins, KeyDestinations)
	}
	if p.Pairs != "" && p.Origins != "" {
		vs.Fail(KeyPlacePairs, "a list of trips names its own origins and destinations: leave %s and %s unset", KeyOrigins, KeyDestinations)
	}
	if !p.Enabled() {
		return p
	}
	key := KeyOrigins
	if p.Pairs != "" {
		key = KeyPlacePairs
	}
	switch {
	case !slices.Equal(cfg.Sources, []string{"0"}) || !slices.Equal(cfg.Targets, []string{"all"}) || cfg.PairList != "":
		vs.Fail(key, "places name the rows and columns: leave %s, %s and %s unset", KeySources, KeyTargets, KeyPairList)
	case len(cfg.Pairs) > 0 || cfg.Summary || !cfg.Distances:
		vs.Fail(key, "a table of places is written alone: it takes no %s, %s or %s", KeyPaths, KeySummary, KeyDistances)
	case cfg.MaxDistance != results.NoCutoff:
		vs.Fail(key, "a table of places takes no %s", KeyMaxDistance)
	case layoutName != "long" || formatName == string(formats.KindDistanceMatrix):
		vs.Fail(key, "a table of places is a row per pair: it needs %s: long and %s parquet or arrow", KeyLayout, output.KeyOutputFormat)
	}
	return p
}
