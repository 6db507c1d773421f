// Package tables reads and writes pathflow's tables as Parquet or Arrow IPC
// files: the graph tables an ingest produces and the result, paths and
// summary tables a computation produces.
//
// # Formats
//
// Parquet (default) is written with zstd and DELTA_BINARY_PACKED integer
// columns; Arrow IPC is the file format ("ARROW1" magic, also called
// Feather v2) with zstd-compressed buffers. WithCompression picks LZ4 or no
// compression instead. Readers tell the formats apart by their leading
// magic bytes, never by file name. Files carry no timestamp and schema
// metadata is written in key order, so the same input and options give
// byte-identical files (with the same arrow-go version, which Parquet
// files name in their footer); FileInfo reports each file's rows, size and SHA-256
// for run manifests. Every file, and every result directory, is written
// under a temporary name and renamed into place only when complete (see
// package atomicfile).
//
// Schema metadata is the caller's map[string]string (keys such as
// "pathflow.input_file" or "pathflow.input_sha256"), stored on every file
// and returned by the readers; keys starting with "ARROW:" are reserved.
//
// # Graph tables (WriteGraph, ReadGraph)
//
//	edges:    src int32, dst int32, weight int32          one row per arc
//	vertices: id int32, original_id int64 [, x int32, y int32]
//
// Nothing is nullable. The vertices table has one row per vertex, id
// 0..N-1 in order, and its row count is the graph's vertex count.
// original_id is the vertex's id in the input (the identity when the input
// had none). The x and y columns exist only when coordinates are known;
// unknown coordinates are absent columns, not nulls.
//
// # Result tables (ResultWriter, ReadResults, ScanResults)
//
// A result is a directory of part files part-00000.parquet,
// part-00001.parquet, ... (.arrow for Arrow IPC), read in name order, in
// the long layout:
//
//	source int32, vertex int32, distance int64 (nullable) [, parent int32 (nullable)]
//
// with one row for every (source, vertex) pair: trees follow one another in
// the order they were written, each listing vertices 0..N-1, and every tree
// of a result has the same N. All rows are
// kept: distance is null when the source does not reach the vertex, and
// parent, the vertex before it on a shortest path, is null for the source
// itself and for unreachable vertices. Analysts filter on "distance IS NOT
// NULL" rather than guess which rows are missing. The parent column is
// absent when the run computed distances only. Parts hold at most
// WithPartRows rows in record batches (row groups) of at most WithBatchRows
// rows, so an all-pairs result streams out without ever being held twice.
//
// # Paths table (WritePaths, ReadPaths)
//
//	source int32, target int32, cost int64 (nullable), vertices list<element: int32> (nullable)
//
// One row per requested pair: cost is null when the target is unreachable,
// vertices (source first, target last) is null when there is no path or
// the run kept no parents.
//
// # Summary table (WriteSummary, ReadSummary, Summarize)
//
//	source int32, reachable int64, eccentricity int64 (nullable), closeness float64 (nullable)
//
// One row per source: the vertices it reaches (itself included), the
// largest distance to one of them other than itself (null when it reaches
// no other), and its Wasserman-Faust closeness over outgoing distances
// (null when undefined); Summarize gives the exact definitions.
//
// # Memory and concurrency
//
// Writers build Arrow arrays straight from flat slices (arc columns are
// passed without a copy) and hold one batch at a time; readers copy column
// values out in bulk, batch by batch. Every writer and reader is owned by
// one goroutine. WithAllocator sets the Arrow allocator.
package tables
