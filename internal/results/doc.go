// Package results holds what a computation hands to its writers: blocks of
// result rows, and views that read them as shortest-path trees and
// matrices.
//
// A backend (internal/cpu, internal/gpu) computes the rows of a request
// (one row per source: the distances, and optionally parents, to every
// vertex or to chosen targets) and hands them to a Sink in Rows blocks: row
// panels of an all-pairs matrix, batches of sources of a multi-source run.
// Blocks come from a bounded Pool, so a slow consumer holds the producer
// back; the consumer releases each block when it is done with it, which
// returns the buffer to its pool. Blocks may be produced concurrently and
// handed over in any order; their First field says where they belong.
// Every writer of blocks is a Consumer (the distances parts, summary and
// paths of internal/tables, the distance matrix of formats); the pipeline
// hands each block to several through a Fanout. Consumers check a block's
// shape with CheckShape, CheckRagged or CheckSparse before reading it.
//
// Tree and Matrix read full rows in place with gonum-style accessors
// (From, WeightTo, To, Weight, Between). They do not replace paths.Tree
// and paths.Matrix, which own their memory: the CPU reference searches
// write into a paths.Tree and formats.ReadDistanceMatrix returns a
// paths.Matrix, while a view borrows a block until it is released.
//
// Unreachable and parent conventions are package paths': paths.Unreachable
// (graph.Inf32 in int32 rows) and paths.NoParent.
package results
