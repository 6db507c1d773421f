// Package cpu is pathflow's CPU backend and the reference every GPU kernel
// is validated against: Dijkstra's algorithm with a 4-ary indexed heap,
// queue-based Bellman-Ford with negative-cycle detection, a cache-blocked
// parallel Floyd-Warshall (and the naive triple loop it is checked
// against), Johnson's reweighting for sparse all-pairs problems, and
// many-source runs spread over worker goroutines.
//
// Distances are exact: searches add in int64 after checking
// graph.DistanceBound, and all-pairs matrices use int32 only when
// graph.FitsInt32Distances proves every distance fits. Inputs that would
// give a wrong answer give an error instead: negative weights for Dijkstra
// (ErrNegativeWeight), negative cycles (*NegativeCycleError), distances
// beyond int64 (ErrDistanceOverflow).
//
// Parents follow the project-wide rule: the vertex before v on a shortest
// path, paths.NoParent for the source and for unreachable vertices.
package cpu
