// Package gputest holds the CPU references, graph fixtures and sinks that
// the GPU backend's tests and benchmarks check against: a plain
// Floyd-Warshall, Dijkstra and Bellman-Ford in int64, row comparison and
// shortest-path-tree checks (loops included), a Collector sink that checks
// the blocks of a run and keeps copies of their rows, random graphs (with
// negative weights but no negative cycles) and the SNAP inputs with
// pathflow's hash weights. It needs no CUDA.
package gputest
