package input

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/pathflow/pathflow/formats/osmroads"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/pipeline/runlog"
)

// OpenStreetMap configuration keys.
const (
	KeyInputOSMProfile      = "input.osm.profile"
	KeyInputOSMWeight       = "input.osm.weight"
	KeyInputOSMKeepAllNodes = "input.osm.keep_all_nodes"
	KeyInputOSMComponents   = "input.osm.components"
)

// The values of input.osm.components.
const (
	ComponentsAll     = "all"
	ComponentsLargest = "largest"
)

// OSMSpec says how an OpenStreetMap extract becomes a road network.
type OSMSpec struct {
	// Profile is a built-in profile's name (car, foot) or a YAML profile
	// file (formats/osmroads).
	Profile string
	// Weight is "time" (milliseconds) or "length" (metres).
	Weight string
	// KeepAllNodes makes every node of a routable way a vertex.
	KeepAllNodes bool
	// Components is "all" or "largest" (the largest strongly connected
	// component only).
	Components string
}

// osmKeys declares the OpenStreetMap keys.
func osmKeys() []config.Key {
	return []config.Key{
		{Name: KeyInputOSMProfile, Default: "car", Flag: "osm-profile", Usage: "OpenStreetMap routing profile: car, foot, or a YAML profile file (formats/osmroads/profiles/ shows the format)"},
		{Name: KeyInputOSMWeight, Default: string(osmroads.Time), Flag: "osm-weight", Usage: "OpenStreetMap arc weight: time (milliseconds) or length (metres); the other is kept as a column"},
		{Name: KeyInputOSMKeepAllNodes, Default: false, Usage: "OpenStreetMap: make every node of a routable way a vertex instead of merging chains of degree-two nodes into one arc"},
		{Name: KeyInputOSMComponents, Default: ComponentsAll, Flag: "osm-components", Usage: "OpenStreetMap: keep all strongly connected components, or only the largest (every vertex then reaches every other)"},
	}
}

// readOSMSpec reads the OpenStreetMap keys.
func readOSMSpec(vs *config.Values) OSMSpec {
	return OSMSpec{
		Profile:      vs.String(KeyInputOSMProfile),
		Weight:       vs.OneOf(KeyInputOSMWeight, string(osmroads.Time), string(osmroads.Length)),
		KeepAllNodes: vs.Bool(KeyInputOSMKeepAllNodes),
		Components:   vs.OneOf(KeyInputOSMComponents, ComponentsAll, ComponentsLargest),
	}
}

// loadOSM reads an OpenStreetMap extract in its two passes, each hashed as
// it is read and shown as progress; an extract whose bytes differ between
// the passes is refused.
func loadOSM(ctx context.Context, path string, spec Spec, log *slog.Logger, progressOut io.Writer, quiet bool) (*LoadedGraph, error) {
	profile, err := osmroads.ResolveProfile(spec.OSM.Profile)
	if err != nil {
		return nil, config.Errorf(KeyInputOSMProfile, "%v", err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var sums [2]string
	open := func(p osmroads.Pass) (io.ReadCloser, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		progress := runlog.NewProgress(log, progressOut, quiet, fmt.Sprintf("read %s (%s)", filepath.Base(path), p), "bytes", st.Size())
		return &passReader{f: f, hashed: newHashedReader(f, st.Size(), progress), progress: progress, sum: &sums[p-1]}, nil
	}
	net, err := osmroads.Read(ctx, path, open, osmroads.Options{
		Profile:          profile,
		Weight:           osmroads.Metric(spec.OSM.Weight),
		KeepAllNodes:     spec.OSM.KeepAllNodes,
		LargestComponent: spec.OSM.Components == ComponentsLargest,
		Workers:          parallel.Workers(0),
	})
	if err != nil {
		return nil, err
	}
	if sums[0] != sums[1] {
		return nil, fmt.Errorf("%s: the file changed between the two passes over it (SHA-256 %s, then %s)", path, sums[0], sums[1])
	}
	s := net.Stats
	log.Info("road network",
		"profile", profile.Name(), "weight", spec.OSM.Weight, "ways", s.Ways, "way_nodes", s.WayNodes,
		"missing_nodes", s.MissingNodes, "barriers", s.Barriers, "blocking", s.Blocking,
		"components", s.Components, "largest_components", s.ComponentSizes, "dropped_vertices", s.DroppedVertices,
		"n", net.Edges.N, "m", net.Edges.M())
	unit := osmroads.TimeUnit
	if spec.OSM.Weight == string(osmroads.Length) {
		unit = osmroads.LengthUnit
	}
	return &LoadedGraph{
		Edges: net.Edges, Vertices: net.Vertices, Road: &Road{Network: net, Profile: profile.Name(), ProfileDigest: profile.Digest(), Weight: spec.OSM.Weight},
		File: path, Name: filepath.Base(path), SHA256: sums[0], Format: "osm", Bytes: st.Size(), Directed: true,
		Weighting: fmt.Sprintf("osm %s profile, %s in %s", profile.Name(), spec.OSM.Weight, unit), WeightUnit: unit,
	}, nil
}

// Road is what an OpenStreetMap input carries beyond its graph: the arcs'
// metrics, ways and geometry, and how they were made.
type Road struct {
	*osmroads.Network
	// Profile and ProfileDigest name the routing profile.
	Profile, ProfileDigest string
	// Weight is the metric the arcs' weights hold (LoadedGraph.WeightUnit
	// says its unit).
	Weight string
}

// passReader is one pass over the extract: its bytes hashed as they are
// read, the hash kept when the pass closes.
type passReader struct {
	f        *os.File
	hashed   *hashedReader
	progress *runlog.Progress
	sum      *string
}

func (r *passReader) Read(p []byte) (int, error) { return r.hashed.Read(p) }

// Close finishes the pass: the rest of the file is hashed (a decoder may
// stop before the end), then everything is closed.
func (r *passReader) Close() error {
	sum, err := r.hashed.Sum()
	*r.sum = sum
	r.hashed.Close()
	r.progress.Finish()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
}
