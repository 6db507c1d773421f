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
// Every writer of blocks is a Consumer (the distances parts, summary,
// paths and distance matrix of internal/resultfiles); the pipeline
// hands each block to several through a Fanout. Consumers check a block
// against the run's Shape (Shape.Check) before reading it.
//
// Tree and Matrix read full rows in place with gonum-style accessors
// (From, WeightTo, To, Weight, Between). They do not replace paths.Tree
// and paths.Matrix, which own their memory: the CPU reference searches
// write into a paths.Tree and formats.ReadDistanceMatrix returns a
// paths.Matrix, while a view borrows a block until it is released.
//
// A result is declared once, as a Shape: its sources, its targets (every
// vertex, shared Targets or per-source SourceTargets), its cutoff, whether
// rows may come sparse, and its columns. backend.Request carries it and
// resultfiles.ResultShape adds a layout to it; Shape.Check is the one block
// check of backends and consumers. Narrowing lives here too: a backend
// answers exactly the shape's targets and columns, and one that computes
// whole rows wraps its sink in Shape.NarrowSink.
//
// Columns are declared in columns.go (Column): the distance, which every
// block holds, and the parent. A block says which it holds (Rows.Has,
// Rows.Columns), a request asks for them in Shape.Columns. Adding a
// per-cell column is one declaration there plus filling it where it is
// computed; checks, narrowing and fan-out carry it.
//
// A result read only as per-source summaries (Shape.SummaryOnly) may
// come as blocks of RowSummary (Rows.Summaries) instead of cells: a
// backend reduces each row where it makes it (SummarizeSink on the host,
// a kernel on the device), so that a whole tree leaves it as a few words.
//
// Distances keep the width their producer computes them in (int32 when the
// graph's distances provably fit, as GPU blocks do; int64 otherwise), so
// large rows cross to the writers at 4 bytes a cell without a widening
// pass. Consumers read them through Distances, whose one rule for "no
// path" (At's false) replaces the producers' markers (graph.Inf32 and
// above in Rows.Dist32, paths.Unreachable in Rows.Dist64): no consumer
// branches on the width or compares against a marker. The views Tree and
// Matrix answer gonum-style, with paths.Unreachable, and parents use
// paths.NoParent.
package results
