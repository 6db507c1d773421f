package osmroads

import (
	"github.com/pathflow/pathflow/internal/graph"
)

// Metric names an arc attribute the reader measures.
type Metric string

// The metrics of every arc.
const (
	// Time is the travel time in milliseconds at the profile's speed.
	Time Metric = "time"
	// Length is the length in metres along the road.
	Length Metric = "length"
)

// Units of the metrics, as the tables record them.
const (
	TimeUnit   = "ms"
	LengthUnit = "m"
)

// Options say how an extract becomes a network.
type Options struct {
	// Profile decides which ways and barriers count and how fast each
	// way is travelled; nil means the built-in car profile.
	Profile *Profile
	// Weight is the metric the arcs' weights hold: Time (the default
	// when "") or Length. Both are kept in Network either way.
	Weight Metric
	// KeepAllNodes makes every node of a routable way a vertex instead of
	// merging chains of nodes of degree two into one arc.
	KeepAllNodes bool
	// LargestComponent keeps only the largest strongly connected
	// component: every vertex of the result reaches every other.
	LargestComponent bool
	// Workers bounds the goroutines decoding PBF blocks; 0 means one.
	Workers int
}

// Network is a routable road network read from an extract.
type Network struct {
	// Edges are the arcs, weighted by the chosen metric.
	Edges *graph.EdgeList
	// Vertices hold each vertex's OpenStreetMap node id (OriginalID) and
	// coordinates (Geographic: longitude and latitude in 10^-7 degree).
	// Vertices are numbered in increasing node id.
	Vertices *graph.Vertices
	// TimeMS, LengthM and WayID are per arc: the travel time in
	// milliseconds, the length in metres (both rounded to the nearest
	// integer from the arc's exact sum) and the OpenStreetMap way the arc
	// runs along.
	TimeMS, LengthM []int32
	WayID           []int64
	// Geometry holds the points each arc passes through between its two
	// vertices, in travel order.
	Geometry Geometry
	// Stats count what the reader kept and dropped.
	Stats Stats
}

// Geometry is the intermediate points of every arc: those of arc i are
// X[Offsets[i]:Offsets[i+1]] and the same of Y, in 10^-7 degree.
type Geometry struct {
	Offsets []int64
	X, Y    []int32
}

// Stats count what the reader saw and kept.
type Stats struct {
	// Ways is how many ways the profile allowed; WayNodes how many
	// distinct nodes they reference, MissingNodes how many of those the
	// extract does not hold (ways cut at the extract's border), whose
	// road is left out.
	Ways, WayNodes, MissingNodes int64
	// Barriers counts the barrier nodes on routable ways; Blocking those
	// the profile may not pass.
	Barriers, Blocking int64
	// Components is the number of strongly connected components before
	// any was dropped, ComponentSizes the vertex counts of the largest
	// ones (at most ten, largest first) and DroppedVertices the vertices
	// outside the largest component that LargestComponent removed.
	Components      int64
	ComponentSizes  []int64
	DroppedVertices int64
}
