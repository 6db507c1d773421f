package planner

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
)

// autoCHMaxAllPairsN: all pairs on up to this many vertices stay with
// auto's own pick (the CPU's blocked Floyd-Warshall, whose n^3 steps cost
// well under a nanosecond each, is faster there than PHAST's rows).
const autoCHMaxAllPairsN = FloydWarshallMaxN

// Query is the shape of a run's question, as AutoCH needs it.
type Query struct {
	// Algorithm and Variant are as configured (compute.algorithm,
	// compute.variant).
	Algorithm, Variant string
	// AllSources: every vertex is a source (of an unsharded run).
	AllSources bool
	// N is the graph's vertex count.
	N int32
	// Sources is the number of sources; Targets the number of targets
	// when the rows are narrowed to a target list, -1 otherwise;
	// PairList is true for a pair list (per-source targets).
	Sources  int
	Targets  int
	PairList bool
	// Sharded: the run is one shard of a sharded run.
	Sharded bool
}

// AutoCH says whether compute.algorithm auto answers q from a stored
// contraction hierarchy, and describes the query for the reason: at least
// two sources (one shard of a sharded run counts as many, so every shard
// plans alike), or any targets or pair list, and not all pairs of a small
// graph. The weights are the caller's to check (ch needs them >= 0). O(1).
func AutoCH(q Query) (bool, string) {
	if q.Algorithm != backend.AlgorithmAuto || q.Variant != "" {
		return false, ""
	}
	switch {
	case q.AllSources && q.N <= autoCHMaxAllPairsN:
		return false, ""
	case q.PairList:
		return true, fmt.Sprintf("a pair list from %d sources", q.Sources)
	case q.Targets >= 0:
		return true, fmt.Sprintf("%d sources x %d targets", q.Sources, q.Targets)
	case q.Sources >= 2:
		return true, fmt.Sprintf("%d sources, whole rows", q.Sources)
	case q.Sharded:
		return true, "a shard of a sharded run"
	}
	return false, ""
}

// WithCH is alg turned into ch, for a run auto answers from a stored
// hierarchy: a tile edge given with auto applies to Floyd-Warshall alone.
func WithCH(alg backend.Algorithm) backend.Algorithm {
	alg.Name, alg.TileEdge = backend.AlgorithmCH, 0
	return alg
}

// StoredCHReason is the Choice.Reason of a run answered from the stored
// hierarchy named: picked by auto for query (AutoCH's description), or
// requested as ch.
func StoredCHReason(named, query string, auto bool) string {
	if auto {
		return fmt.Sprintf("auto: the input folder holds a contraction hierarchy of this graph (%s) and the query is %s with non-negative weights: ch (PHAST sweeps on the GPU; bucket tables for targets and PHAST for whole rows on the CPU)",
			named, query)
	}
	return fmt.Sprintf("requested: the contraction hierarchy stored with the input (%s), then PHAST sweeps on the GPU, or bucket tables for targets and PHAST for whole rows on the CPU", named)
}

// StoredCHWhy is what Plan.Why gains when auto answers from the stored
// hierarchy.
const StoredCHWhy = "; auto: ch from the stored hierarchy"
