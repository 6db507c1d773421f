// Package routes turns shortest paths on a road network into routes: the
// arcs a path runs along, their travel time and length summed, and the
// line through the arcs' points that a map draws.
//
// A path is a sequence of vertices; between two consecutive vertices u, v
// the route takes the arc u -> v the search used: the lightest by weight,
// ties broken by the smaller travel time, then the smaller length, then
// the arc's row in the edges table. Index finds it in O(in-degree of v).
//
// A Tracer reads a path straight off one source's distances, without the
// parents: from the target back, each step takes the in-neighbour of
// smallest id on a shortest path (dist[u] + w(u, v) == dist[v]), which is
// the parent rule every backend follows, so the route is the one the
// parents describe, at O(path length x in-degree) per target instead of
// O(n + m) per source for the whole tree; a walk stops scanning arcs where
// it meets a path of the same source read before it. That holds where the
// rule cannot loop. Where arcs of weight zero close a cycle, the backends
// rebuild a looping source's whole tree (paths.Repair), which moves paths
// that never touch the cycle too, so there the Tracer builds and reads
// every source's mended tree.
package routes
