// Package formats reads and writes the graph files pathflow ingests and the
// distance matrices it produces. Every reader streams from an io.Reader in
// one pass, holds no copy of the text and never panics: any problem is an
// error that names the file and the place.
//
// # Formats
//
// DIMACS shortest-path graph, ".gr" (ReadDIMACS, WriteDIMACS), from the 9th
// DIMACS Implementation Challenge:
//
//	c comment
//	p sp N M        exactly one, before any arc; 0 <= N <= 2^31-1, M >= 0
//	a U V W         M arcs; 1 <= U, V <= N; W an int32
//
// Ids are 1-based in the file and 0-based in the result (id - 1);
// DIMACSVertices gives the map back. The number of arc lines must equal M.
//
// DIMACS coordinates, ".co" (ReadCoordinates):
//
//	p aux sp co N
//	v ID X Y        every ID in 1..N exactly once; X, Y int32
//
// SNAP edge list (ReadSNAP): "#" comment lines, one of which may be the
// header "# Nodes: N Edges: M", then "FromNodeId ToNodeId [Weight]" lines
// separated by spaces or tabs. Ids are arbitrary integers in 0..2^63-1 and
// are renumbered densely in ascending order of the original id (the
// smallest becomes 0); Vertices.OriginalID holds the original ids. When the
// header is present the file must have M edge lines and N distinct ids
// (the count of ids in use, not the largest id plus one).
//
// Binary graph (ReadBinary, WriteBinary): little-endian int32 n, int32 m,
// then m triples (source, target, weight) of int32 with 0-based endpoints,
// and nothing after.
//
// Distance matrix (ReadDistanceMatrix, the reader of the compute command's
// distmatrix output): n*n little-endian int32 in row-major order, no
// header; row s holds the distances from s and graph.Inf32 (2^30-1) means
// "no path". n is given or inferred from the size.
//
// WriteDIMACS and WriteBinary write a graph for other tools (the ingest
// command's dimacs and binary conversions).
//
// The text formats are gzip-decompressed when their first bytes are the
// gzip magic 1f 8b, whatever the file is called. The binary formats are
// read as they are.
//
// # Detecting the format
//
// Detect tells the format of an input from its bytes first (gzip and the
// Arrow and Parquet magic, a binary header that matches the file's size,
// the first data line of a text) and from its name only when the content
// leaves it open; Detection.Rule says which rule decided.
// DetectFile does the same for a path, taking a folder for an ingest output.
//
// # The registry of formats
//
// The registry (registry.go: All, Lookup, ByName, GraphNames) describes
// every input format once: its Kind, the name input.format takes and the
// outputs record; whether it holds a graph; its file extensions; whether
// its reader takes gzip; its magic bytes and the content rules Detect asks
// of it; and its Reader. A new format is one entry there and its reader's
// file. Pair lists, CSV or tables, are read by the pairlist subpackage.
//
// # Weights of unweighted inputs
//
// SNAP files rarely carry weights. SNAPOptions.Weighting chooses: the file's
// weight column if any, else 1 (WeightFromFile, the default); 1 always
// (WeightUnit); or a hash of the original ids (WeightHash), the same
// weighted graph in every tool:
//
//	w(u, v) = lo + splitmix64(seed XOR ((u << 32) | v)) mod (hi - lo + 1)
//
// For an undirected read, both arcs of the line "u v" get w(u, v), with u
// and v in file order, so the graph stays symmetric.
//
// # Self-loops and parallel arcs
//
// Readers keep every arc in file order. Simplify with Reduce keeps one arc
// per (source, target) pair with the smallest weight, drops non-negative
// self-loops, keeps one copy of a negative self-loop (a negative cycle) and
// sorts the arcs by source then target.
//
// # Errors
//
// Text formats report a *ParseError, printed "formats: FILE:LINE: MSG", with
// the line left out for whole-file problems (no header, wrong counts, which
// name the header's line when there is one). Binary formats report a
// *BinaryError, printed "formats: FILE: offset OFF: MSG", naming the triple
// or matrix entry. FILE is the name the caller passed.
//
// # Cost
//
// The text readers share one reading loop (lines.go) that hands parsers
// 256 KiB runs of whole lines to scan in place. The DIMACS reader is a
// hand-written byte scanner with no per-line allocation; after the p line
// it parses chunks on every core and joins their arcs in file order, so
// the result, line numbers in errors included, is that of one core. On
// Linux the large result arrays are backed by 2 MiB pages where the kernel
// allows it: with 4 KiB pages their first touch was half of a parse's time
// on virtual machines. Result arrays are preallocated from the header's
// counts, but never beyond what the input's size (when the reader can tell
// it, as files can; for gzip, that size times DEFLATE's largest ratio,
// 1032) or 64 Ki entries (when it cannot) allows; past that they
// grow with the data actually read. A header that lies cannot make a reader
// allocate more than the input justifies.
package formats
