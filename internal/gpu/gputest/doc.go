// Package gputest holds the CPU references and graph fixtures that the GPU
// backend's tests and benchmarks check against: a plain Floyd-Warshall and
// Dijkstra in int64, matrix comparison, per-row predecessor checks, random
// graphs (with negative weights but no negative cycles) and the SNAP inputs
// with pathflow's hash weights. It needs no CUDA.
package gputest
