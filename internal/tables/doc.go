// Package tables reads and writes pathflow's graph tables as Parquet or
// Arrow IPC files, the tables an ingest produces, and holds the plumbing
// every table file shares: formats, codecs and options (Option, Config),
// the writer and reader of one file (TableWriter, TableReader), schema
// metadata and FileInfo. Package resultfiles writes the result, paths and
// summary tables of a computation through it.
//
// # Formats
//
// Parquet (default) is written with Snappy and DELTA_BINARY_PACKED integer
// columns; a table of flat columns, lists of a flat element and structs of
// flat fields has each row group's columns encoded at once, one goroutine
// a column, into the bytes pqarrow's writer would give
// (parallel_columns.go), most pages built by this package (pageEncoder).
// Arrow IPC is the file format ("ARROW1" magic, also called Feather v2)
// with uncompressed buffers (DefaultCompression). WithCompression picks
// zstd, LZ4, Snappy (Parquet only) or no compression instead. defaults.go
// holds every default, the commands' included. Readers tell the formats
// apart by their leading magic bytes, never by file name. Files carry no
// timestamp and schema metadata is written in key order, so the same input
// and options give byte-identical files (with the same arrow-go version,
// which Parquet files name in their footer); FileInfo reports each file's
// rows, size and SHA-256 for run manifests. Single files are written under
// a temporary name and renamed into place only when complete (see package
// atomicfile); a result directory is the caller's to commit (see
// resultfiles.ResultSink).
//
// Schema metadata is the caller's map[string]string (keys such as
// "pathflow.input_file" or "pathflow.input_sha256"), stored on every file
// and returned by the readers; keys starting with "ARROW:" are reserved.
//
// # Graph tables (WriteGraph, ReadGraph)
//
//	edges:    src int32, dst int32, weight int32 [, arc columns]  one row per arc
//	vertices: id int32, original_id int64 [, x int32, y int32 | , lon float64, lat float64]
//	geometry: arc int32, lon list<float64>, lat list<float64>   one row per curved arc
//
// Nothing is nullable. The vertices table has one row per vertex, id
// 0..N-1 in order, and its row count is the graph's vertex count; a
// compute output's may hold only the vertices its other tables name
// (WriteVertexSubset), in id order, each row as the whole table has it.
// original_id is the vertex's id in the input (the identity when the input
// had none). The x and y columns exist only when coordinates are known;
// unknown coordinates are absent columns, not nulls.
//
// Geographic vertices (graph.Vertices.Geographic: OpenStreetMap's WGS84
// coordinates in 10^-7 degree) have lon and lat columns instead of x and
// y: float64 degrees, which every tool reads as numbers, converted
// exactly both ways, so that a table read and written again has the same
// bytes. Their fields carry the metadata crs = OGC:CRS84 and unit =
// degrees, and the schema the key pathflow.crs = OGC:CRS84 (MetaCRS),
// which readers of a Parquet file's own key-value metadata see (DuckDB's
// parquet_kv_metadata). A reader refuses a table with both kinds of
// coordinates, or a lon or lat beyond ±180 or ±90 degrees.
//
// The edges table may carry arc columns after weight (WithArcColumns,
// ReadArcColumn): int32 or int64 values of each arc, with a unit in the
// field metadata "unit"; an OpenStreetMap ingest writes time_ms, length_m
// and way_id. ReadGraph skips them. The geometry table (WriteArcGeometry,
// ReadArcGeometry) holds the intermediate points of each arc that has any,
// its end vertices excluded, in arc order.
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
// # Memory and concurrency
//
// Writers build Arrow arrays straight from flat slices (arc columns are
// passed without a copy) and hold one batch at a time; readers copy column
// values out in bulk, batch by batch. Every writer and reader is owned by
// one goroutine. WithAllocator sets the Arrow allocator.
package tables
