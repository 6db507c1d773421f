// Package shortest holds pathflow's shortest-path algorithms on the host,
// as a plain library over flat arrays of dense int32 ids: Dijkstra's
// algorithm with a 4-ary indexed heap, queue-based Bellman-Ford with
// negative-cycle detection, a cache-blocked parallel Floyd-Warshall (and
// the naive triple loop it is checked against), and Johnson's reweighting
// for sparse graphs with negative weights, with the validation and the
// parent-tree repair they share.
//
// The CPU backend (package cpu) runs them to answer requests, and every
// GPU kernel is checked against them; the GPU backend also uses
// Bellman-Ford to trace a negative cycle its device search ran into. The
// package knows nothing of backends, requests or blocks: the row searches
// (RowSearch, TargetSearch, CellSearch) fill one row at a time into memory
// the caller owns, so a backend decides how rows are batched, scheduled
// and handed over.
//
// Distances are exact: searches add in int64 after checking
// graph.DistanceBound, and Floyd-Warshall's matrix uses int32 only when
// graph.FitsInt32Distances proves every distance fits. Inputs that would
// give a wrong answer give an error instead: negative weights for Dijkstra
// (ErrNegativeWeight), negative cycles (*NegativeCycleError), distances
// beyond int64 (ErrDistanceOverflow). Errors keep the "cpu:" prefix of the
// backend that reports them.
//
// Parents follow the project-wide rule: the vertex before v on a shortest
// path, paths.NoParent for the source and for unreachable vertices.
package shortest
