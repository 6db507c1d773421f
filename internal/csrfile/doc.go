// Package csrfile writes and maps the reload file of an ingest output: a
// graph's compressed sparse rows and vertex table as raw little-endian
// arrays, so that a later run maps them from the page cache instead of
// decoding tables and sorting arcs again.
//
// # Layout
//
// Every integer is little-endian; each part starts on a 4 KiB boundary
// (zero bytes pad the gaps), so the arrays of a mapped file are aligned.
//
//	header    64 bytes: magic "PFCSR\x00v1", flags, n, m, checksum block
//	          size, file size, metadata length, header CRC (see header.go)
//	metadata  JSON object of strings (the graph's table metadata; nothing
//	          of the run, so the same graph gives the same bytes)
//	offsets   int64 [n+1]  CSR row starts; offsets[n] = m
//	targets   int32 [m]    head of each arc, rows in vertex order, arcs of
//	                       a row in input order (graph.BuildCSR's order)
//	weights   int32 [m]
//	sources   int32 [m]    tail of each arc: the row that holds it, so the
//	                       arcs read back as an edge list without work
//	metric    int32 [m]    a second value per arc (graph.CSR.Metric), when
//	                       the arcs carry one (flag 8), named in the
//	                       metadata (MetaMetric)
//	original  int64 [n]    input ids, when not the identity (flag 1)
//	x, y      int32 [n]    coordinates, when known (flag 2); longitude
//	                       and latitude in 10^-7 degree with flag 4
//	                       (graph.Vertices.Geographic), which Open
//	                       refuses without flag 2
//	checksums uint32 per block of the data (offsets to the end of y):
//	          CRC-32C (Castagnoli) of each block of the header's block size
//
// The header's CRC-32C covers the header (with its CRC field zero) and the
// metadata. Open checks the magic, the sizes against the file's, every
// CRC (on every core), and that the offsets span the arcs, and names the file in
// every error. The file's checksum of itself (Graph.Checksum, Written.Checksum)
// is the CRC-32C of the header and the block checksum table: a writer
// records it beside the file (an ingest manifest does), and a reader
// compares it to tell a stale or replaced file, whose own CRCs agree, from
// the one written; the metadata describes the graph for the same check.
// The alignment, block CRCs, file checksum and mapping are package
// mapfile's, shared with the contraction hierarchy's file (package chfile).
package csrfile
