// Package cpu is pathflow's CPU backend: it runs the host algorithms of
// package shortest (Dijkstra, Bellman-Ford, Floyd-Warshall, Johnson) and
// ch, which builds a contraction hierarchy (package hierarchy) for the run
// and answers from it: bucket tables for targets, PHAST for whole rows.
//
// The backend registers itself as "cpu" (see backend.Register), and each
// algorithm file (dijkstra.go, bellman_ford.go, ...) registers what the
// backend runs for its algorithm. Choose resolves a configured algorithm
// ("auto", "sssp", a name and a variant) into the concrete one Backend.Run
// executes. Run streams the rows of the requested sources to a
// results.Sink in blocks: the searches (Dijkstra, Bellman-Ford, Johnson)
// fill blocks from a bounded pool, a batch of sources per block, on
// several worker goroutines; Floyd-Warshall computes the whole matrix and
// hands over views of its rows.
//
// Errors are those of package shortest: negative weights for Dijkstra
// (shortest.ErrNegativeWeight), negative cycles (*backend.NegativeCycleError),
// distances beyond int64 (shortest.ErrDistanceOverflow).
package cpu
