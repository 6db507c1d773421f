// Package hierarchy builds contraction hierarchies (CH) of road-like graphs
// and answers shortest-path queries with them: distance tables by the
// bucket algorithm, one-to-all trees by PHAST, and point-to-point paths in
// the original graph by unpacking shortcuts.
//
// A hierarchy is a set of flat arrays over dense int32 ids. Vertices are
// renumbered by rank (by level in the hierarchy, then by locality): id r
// in the hierarchy is original vertex Order[r], and Rank is the inverse. Up
// holds, for each r, the arcs r -> x with x > r; Down holds, for each r,
// the arcs x -> r with x > r, the tail x stored as the target. Every arc
// carries its middle vertex (in hierarchy ids), or NoMiddle for an arc of
// the original graph. A search that only climbs in rank, forward on Up and
// backward on Down, meets at the top vertex of some shortest path.
//
// Build orders vertices by a priority (edge difference or the quotient of
// added over removed arcs, plus contracted neighbours and search-space
// depth) and contracts them in rounds of independent sets, on every core.
// A graph whose every arc has a reverse of the same weight is contracted
// as undirected: one witness search decides a shortcut both ways.
// Weights must not be negative; a needed shortcut whose weight overflows int32 is
// an error. Distances are int64, and paths.Unreachable where there is no
// path.
package hierarchy
