package input

import (
	"math"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/runlog"
)

// Input configuration keys, shared by ingest and compute.
const (
	KeyInputPath        = "input.path"
	KeyInputDataset     = "input.dataset"
	KeyInputGenerate    = "input.generate"
	KeyInputFormat      = "input.format"
	KeyInputCoordinates = "input.coordinates"
	KeyInputDirected    = "input.directed"
	KeyInputWeighting   = "input.weights.policy"
	KeyInputWeightLo    = "input.weights.lo"
	KeyInputWeightHi    = "input.weights.hi"
	KeyInputWeightSeed  = "input.weights.seed"
	KeyInputSimplify    = "input.simplify"
	KeyInputMirror      = "input.mirror"
	KeyInputOffline     = "input.offline"
)

// Keys declares the input keys, the OpenStreetMap ones among them, then
// the logging keys (runlog.Keys), which every command reads too.
func Keys() []config.Key {
	keys := []config.Key{
		{Name: KeyInputPath, Default: "", Path: true, Flag: "input", Usage: "graph file (DIMACS .gr, SNAP edge list, binary n/m/triple, OpenStreetMap .osm.pbf/.osm/.osm.bz2, or an ingest output folder); gzip and the format are told from the bytes"},
		{Name: KeyInputDataset, Default: "", Flag: "dataset", Usage: "manifest dataset name (NY, BAY, ..., USA, rome99, p2p-Gnutella04, ...) used when input.path is empty"},
		{Name: KeyInputGenerate, Default: "", Flag: "generate", Usage: "synthetic graph used when input.path and input.dataset are empty: grid:side=512,lo=1,hi=1000,seed=1 | random-degree:n=1000000,k=7 | erdos-renyi:n=2048,p=0.05 | road:side=1024,seed=1"},
		{Name: KeyInputFormat, Default: string(formats.KindAuto), Flag: "format", Usage: "input format: auto (by the content, the name only breaking ties), dimacs, snap, binary, osm or table"},
		{Name: KeyInputCoordinates, Default: "", Path: true, Flag: "coordinates", Usage: "DIMACS .co coordinates file (optional)"},
		{Name: KeyInputDirected, Default: true, Flag: "directed", Usage: "SNAP: true keeps each line as one arc; false adds the reverse arc too"},
		{Name: KeyInputWeighting, Default: "file", Flag: "weights", Usage: "SNAP weights: file (third column, else 1), unit, or hash (the shared datasets' rule)"},
		{Name: KeyInputWeightLo, Default: 1, Usage: "hash weighting: smallest weight"},
		{Name: KeyInputWeightHi, Default: 100, Usage: "hash weighting: largest weight"},
		{Name: KeyInputWeightSeed, Default: 42, Usage: "hash weighting: seed"},
		{Name: KeyInputSimplify, Default: "keep", Flag: "simplify", Usage: "keep self-loops and parallel arcs, or reduce them (minimum weight; non-negative self-loops dropped)"},
		{Name: KeyInputMirror, Default: "", Path: true, Flag: "mirror", Usage: "folder of downloaded dataset files that replaces the network (default $PATHFLOW_DATASETS or ../shared/datasets)"},
		{Name: KeyInputOffline, Default: false, Flag: "offline", Usage: "never download datasets"},
	}
	keys = append(keys, metricFileKeys()...)
	keys = append(keys, osmKeys()...)
	return append(keys, runlog.Keys()...)
}

// ReadSpec reads and validates the input keys.
func ReadSpec(vs *config.Values) Spec {
	spec := Spec{
		Path:        vs.String(KeyInputPath),
		Dataset:     vs.String(KeyInputDataset),
		Generate:    vs.String(KeyInputGenerate),
		Format:      vs.OneOf(KeyInputFormat, append([]string{string(formats.KindAuto)}, formats.GraphNames()...)...),
		Coordinates: vs.String(KeyInputCoordinates),
		Directed:    vs.Bool(KeyInputDirected),
		Weighting:   vs.OneOf(KeyInputWeighting, "file", "unit", "hash"),
		Lo:          int32(vs.Int64(KeyInputWeightLo, math.MinInt32, math.MaxInt32)),
		Hi:          int32(vs.Int64(KeyInputWeightHi, math.MinInt32, math.MaxInt32)),
		Seed:        vs.Uint64(KeyInputWeightSeed),
		Simplify:    vs.OneOf(KeyInputSimplify, "keep", "reduce"),
		OSM:         readOSMSpec(vs),
		Metric:      readMetricFileSpec(vs, vs.String(KeyInputSimplify)),
		Mirror:      vs.String(KeyInputMirror),
		Offline:     vs.Bool(KeyInputOffline),
	}
	if spec.Path == "" && spec.Dataset == "" && spec.Generate == "" {
		vs.Fail(KeyInputPath, "is required (or set %s or %s)", KeyInputDataset, KeyInputGenerate)
	}
	if spec.Weighting == "hash" && spec.Lo > spec.Hi {
		vs.Fail(KeyInputWeightLo, "lo %d is above %s %d", spec.Lo, KeyInputWeightHi, spec.Hi)
	}
	return spec
}
