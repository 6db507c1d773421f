// Package backend defines how compute backends hand results to the output
// path, and how a run picks its backend.
//
// A backend computes the rows of a Request (one row per source: the
// distances, and optionally parents, to every vertex) and hands them to a
// Sink in Rows blocks: row panels of an all-pairs matrix, batches of
// sources of a multi-source run. Blocks come from a bounded Pool, so a slow
// consumer holds the producer back; the consumer releases each block when
// it is done with it, which returns the buffer to its pool. Blocks may be
// produced concurrently and handed over in any order; their First field
// says where they belong.
//
// Backends register a Factory (the CPU backend always, the CUDA backend in
// builds with the cuda tag, through a blank import in cmd/compute), so the
// pipeline never imports CUDA code. A Factory's Choose decides, on the host
// and before any device is opened, which algorithm and variant will run and
// in which integer width; Open then starts the backend.
package backend
