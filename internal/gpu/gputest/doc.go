// Package gputest holds the checks, fixtures and sinks that the GPU
// backend's tests and benchmarks use beside the references of
// internal/graph/graphtest: row comparison and shortest-path-tree checks
// (loops included), a Collector sink that checks the blocks of a run and
// keeps copies of their rows, and the reading of the kernels' #defines.
// It needs no CUDA, and takes graphs already read: the real ones come from
// datasets/benchgraphs, above package formats.
package gputest
