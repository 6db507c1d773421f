// Package cpu is pathflow's CPU backend and the reference every GPU kernel
// is validated against: Dijkstra's algorithm with a 4-ary indexed heap,
// queue-based Bellman-Ford with negative-cycle detection, a cache-blocked
// parallel Floyd-Warshall (and the naive triple loop it is checked
// against), Johnson's reweighting for sparse graphs with negative
// weights, and ch, which builds a contraction hierarchy (package
// hierarchy) for the run and answers from it: bucket tables for targets,
// PHAST for whole rows.
//
// The backend registers itself as "cpu" (see backend.Register). Choose
// resolves a configured algorithm ("auto", "sssp", a name and a variant)
// into the concrete one Backend.Run executes. Run streams the rows of the
// requested sources to a results.Sink in blocks: the searches (Dijkstra,
// Bellman-Ford, Johnson) fill blocks from a bounded pool, a batch of
// sources per block, on several worker goroutines; Floyd-Warshall computes
// the whole matrix and hands over views of its rows.
//
// Distances are exact: searches add in int64 after checking
// graph.DistanceBound, and Floyd-Warshall's matrix uses int32 only when
// graph.FitsInt32Distances proves every distance fits. Inputs that would
// give a wrong answer give an error instead: negative weights for Dijkstra
// (ErrNegativeWeight), negative cycles (*NegativeCycleError), distances
// beyond int64 (ErrDistanceOverflow).
//
// Parents follow the project-wide rule: the vertex before v on a shortest
// path, paths.NoParent for the source and for unreachable vertices.
package cpu
