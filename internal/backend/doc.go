// Package backend defines the contract between the pipeline and its
// compute backends, and how a run picks its backend.
//
// A backend computes the rows of a Request (one row per source: the
// distances, and optionally parents, to every vertex) and hands them to a
// results.Sink in results.Rows blocks (package results owns the blocks,
// their pools and their checks, which the writers share).
//
// Backends register a Factory under their name (CPU, GPU) when their
// package is linked in: the CPU backend always, the CUDA backend in builds
// with the cuda tag. The pipeline imports neither; the commands
// (cmd/compute) and the tests that run computations blank-import them, so
// the pipeline never imports CUDA code. The algorithm names every backend
// and the compute.algorithm key share are declared here too (algorithms.go, one Descriptor per algorithm). A Factory's Choose decides, on the host
// and before any device is opened, which algorithm and variant will run and
// in which integer width; Open then starts the backend.
package backend
