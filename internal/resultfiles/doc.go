// Package resultfiles writes the files a computation produces, and reads
// them back: the result (distances) table in its long or wide layout, the
// paths table, the summary table and the binary distance matrix. Every
// table is written through package tables (formats, codecs, Options and
// FileInfo are its), and every table's columns are declared once
// (columns.go), with the names README.md documents: the writers build their
// schemas from them and the readers check a file's columns against the
// same schemas.
//
// # Result tables (ResultSink, ScanRows, ReadResults, ScanResults)
//
// A result is a directory of part files part-00000.parquet,
// part-00001.parquet, ... (.arrow for Arrow IPC), read in name order. A
// ResultShape says what it holds: the sources in order, the targets (nil:
// every vertex, in id order; else those vertices, in the given order), an
// optional cutoff MaxDistance, whether parents are kept, and the layout.
// The long layout (ResultSchema) has a row per (source, target):
//
//	source int32, vertex int32, distance int64 (nullable) [, parent int32 (nullable)]
//
// sources in order, each followed by its targets in order. Without a
// cutoff every row is kept: distance is null when the source does not
// reach the vertex, and parent, the vertex before it on a shortest path, is
// null for the source itself and for unreachable vertices, so analysts
// filter on "distance IS NOT NULL" rather than guess which rows are
// missing. With a cutoff the unreachable rows and those farther than it
// are left out. The wide layout (WideResultSchema) has a row per source,
// the target cells as lists in target order:
//
//	source int32, distance list<element: int64 (nullable)> [, parent list<element: int32 (nullable)>]
//
// where unreachable entries and those beyond the cutoff are null. The
// parent column is absent when the run computed distances only.
//
// A ResultSink takes the blocks of result rows a backend hands over
// (results.Rows, from any goroutine, in any order) and encodes several
// part files at once, releasing each block as soon as the parts that read
// it are done, so memory stays bounded by the producer's pool. Parts hold
// tables.WithPartRows candidate cells (source x target pairs before the cutoff)
// and row groups tables.WithBatchRows of them, both rounded down to whole sources
// (at least one) in the wide layout, so the files depend only on the
// shape, the rows and the options, never on the worker count, the block
// sizes or timing. ScanRows reads any
// long-layout result batch by batch; ScanResults and ReadResults rebuild
// the trees of one with every vertex and no cutoff.
//
// # Paths table (WritePaths, ReadPaths)
//
//	source int32, target int32, cost int64 (nullable), vertices list<element: int32> (nullable)
//	[source_original_id int64, target_original_id int64, vertices_original_id list<element: int64> (nullable)]
//
// One row per requested pair: cost is null when the target is unreachable,
// vertices (source first, target last) is null when there is no path or
// the run kept no parents. The last three columns, with OriginalIDs.Write,
// say the same in the input's ids. A PathSink picks the rows out of a
// run's full blocks.
//
// # Summary table (WriteSummary, ReadSummary, Summarize)
//
//	source int32, reachable int64, eccentricity int64 (nullable), closeness float64 (nullable)
//	[source_original_id int64]
//
// One row per source: the vertices it reaches (itself included), the
// largest distance to one of them other than itself (null when it reaches
// no other), and its Wasserman-Faust closeness over outgoing distances
// (null when undefined); Summarize gives the exact definitions. A
// SummarySink makes the rows of a run from its blocks, over the cells a
// distances table of the same shape writes. source_original_id, with
// OriginalIDs.Write, is the source's id in the input.
//
// # Consumers of result blocks
//
// ResultSink (the parts of a distances table, a pair list's included),
// SummarySink, PathSink, DistanceMatrixWriter and CellVertices (which
// gathers the vertices a table names into a VertexSet) are
// results.Consumers: a run hands each block to all of them through a
// results.Fanout.
//
// # Distance matrix (DistanceMatrixWriter)
//
// The distmatrix output of an all-pairs run: n x n little-endian int32,
// row-major, graph.Inf32 for "no path", no header;
// formats.ReadDistanceMatrix reads it back.
//
// # Memory and concurrency
//
// The Put of every consumer may be called from any goroutine; a
// ResultSink's part writers (tables.WithConcurrency of them) hold a row
// group each; every other writer and reader is owned by one goroutine.
package resultfiles
