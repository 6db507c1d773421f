// Package graphtest holds what the shortest-path tests of every backend
// build graphs with and check answers against: one random-graph builder
// (RandomGraph: self-loops, parallel arcs and, on request, negative
// weights without negative cycles), a line graph, and plain reference
// searches written for obviousness, not speed (Dijkstra, Bellman-Ford and
// Floyd-Warshall in int64, paths.Unreachable for no path).
package graphtest
