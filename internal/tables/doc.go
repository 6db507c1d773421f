// Package tables reads and writes pathflow's tables as Parquet or Arrow IPC
// files: the graph tables an ingest produces and the result, paths and
// summary tables a computation produces.
//
// # Formats
//
// Parquet (default) is written with Snappy and DELTA_BINARY_PACKED integer
// columns; Arrow IPC is the file format ("ARROW1" magic, also called
// Feather v2) with uncompressed buffers (DefaultCompression).
// WithCompression picks zstd, LZ4, Snappy (Parquet only) or no compression
// instead. defaults.go holds every default, the commands' included. Readers tell the formats
// apart by their leading magic bytes, never by file name. Files carry no
// timestamp and schema metadata is written in key order, so the same input
// and options give byte-identical files (with the same arrow-go version,
// which Parquet files name in their footer); FileInfo reports each file's
// rows, size and SHA-256 for run manifests. Single files are written under
// a temporary name and renamed into place only when complete (see package
// atomicfile); a result directory is the caller's to commit (see
// ResultSink).
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
// 0..N-1 in order, and its row count is the graph's vertex count; a
// compute output's may hold only the vertices its other tables name
// (WriteVertexSubset), in id order, each row as the whole table has it.
// original_id is the vertex's id in the input (the identity when the input
// had none). The x and y columns exist only when coordinates are known;
// unknown coordinates are absent columns, not nulls.
//
// # Hierarchy tables (WriteHierarchy, ReadHierarchy)
//
// A contraction hierarchy stored beside the graph tables, always Parquet,
// for analysts and as older ingest outputs hold it (compute maps the
// hierarchy's own file, package chfile, where there is one):
//
//	hierarchy_ranks: id int32, rank int32                       one row per vertex
//	hierarchy_up:    low int32, high int32, weight int32, middle int32   one row per arc
//	hierarchy_down:  the same columns                            one row per arc
//
// An Up arc goes low -> high, a Down arc high -> low (low < high, both
// ranks); middle is a shortcut's middle vertex by rank, -1 for an arc of
// the graph. The schema metadata records the graph checksum the hierarchy
// was built from (MetaHierarchyChecksum), which a reader compares with its
// graph's before using it (ReadHierarchyChecksum reads it from the footer
// alone).
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
// WithPartRows candidate cells (source x target pairs before the cutoff)
// and row groups WithBatchRows of them, both rounded down to whole sources
// (at least one) in the wide layout, so the files depend only on the
// shape, the rows and the options, never on the worker count, the block
// sizes or timing. ScanRows reads any
// long-layout result batch by batch; ScanResults and ReadResults rebuild
// the trees of one with every vertex and no cutoff.
//
// # Paths table (WritePaths, ReadPaths)
//
//	source int32, target int32, cost int64 (nullable), vertices list<element: int32> (nullable)
//
// One row per requested pair: cost is null when the target is unreachable,
// vertices (source first, target last) is null when there is no path or
// the run kept no parents. A PathSink picks the rows out of a run's full
// blocks.
//
// # Summary table (WriteSummary, ReadSummary, Summarize)
//
//	source int32, reachable int64, eccentricity int64 (nullable), closeness float64 (nullable)
//
// One row per source: the vertices it reaches (itself included), the
// largest distance to one of them other than itself (null when it reaches
// no other), and its Wasserman-Faust closeness over outgoing distances
// (null when undefined); Summarize gives the exact definitions. A
// SummarySink makes the rows of a run from its blocks, over the cells a
// distances table of the same shape writes.
//
// # Consumers of result blocks
//
// ResultSink (the parts of a distances table, a pair list's included),
// SummarySink, PathSink and CellVertices (which gathers the vertices a
// table names into a VertexSet) are results.Consumers, like
// formats.DistanceMatrixWriter: a run hands each block to all of them
// through a results.Fanout.
//
// # Memory and concurrency
//
// Writers build Arrow arrays straight from flat slices (arc columns are
// passed without a copy) and hold one batch at a time; readers copy column
// values out in bulk, batch by batch. The Put of every consumer may be
// called from any goroutine; a ResultSink's part writers (WithConcurrency of them) hold a row
// group each; every other writer and reader is owned by one goroutine.
// WithAllocator sets the Arrow allocator.
package tables
