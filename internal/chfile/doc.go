// Package chfile writes and maps the contraction hierarchy file of an
// ingest output (hierarchy.chf): a hierarchy.Hierarchy's arrays as raw
// little-endian arrays, so that a compute run maps them from the page
// cache and queries them as they lie, with no decoding, no inversion of
// the ranks and no pass over the arcs to validate them.
//
// # Layout
//
// Every integer is little-endian; each array starts on a 4 KiB boundary
// (zero bytes pad the gaps), so the arrays of a mapped file are aligned.
//
//	header     64 bytes: magic "PFCHF\x00v1", flags (0, or 1 with metrics), metadata length,
//	           n, Up arcs, Down arcs, checksum block size, file size,
//	           header CRC (see header.go)
//	metadata   JSON object of strings: the caller's (the graph's table
//	           metadata) plus the graph checksum the hierarchy belongs to
//	           (MetaGraphChecksum) and its rounds (MetaRounds)
//	rank       int32 [n]    hierarchy id of each vertex
//	order      int32 [n]    vertex of each hierarchy id (rank's inverse)
//	up         int64 [n+1]  row offsets; int32 [up] targets, weights,
//	           middles (hierarchy ids, -1 for an arc of the graph)
//	down       the same for the Down rows
//	metrics    with header flag 1 only: int32 [up] after the up middles
//	           and int32 [down] after the down middles, each arc's metric
//	           (hierarchy.Hierarchy.UpMetric, DownMetric), whose name the
//	           metadata holds (MetaMetric)
//	checksums  uint32 per block of the data (rank to the end of the down
//	           middles): CRC-32C of each block of the header's block size
//
// The header's CRC-32C covers all bytes before rank: the header (with its
// CRC field zero), the metadata and the zero padding after it, so, unlike
// graph.csr, no byte of the file goes unchecked. The file's checksum of
// itself (File.Checksum, Written.Checksum) is mapfile.FileChecksum: an
// ingest manifest records it, and compute compares the two.
//
// # What Open checks, and what it does not
//
// Open checks the magic, the counts' bounds, the sizes against the file's,
// the header CRC, the CRC-32C of every block (on every core, at memory
// speed) and, in O(1), that both offset arrays start at 0 and end at their
// arc counts. It does not check the hierarchy's structure (ranks a
// permutation, arcs climbing, rows sorted, middles below both ends: what
// hierarchy.Validate checks in O(n + arcs)): the file is written by our
// own ingest from a hierarchy that Build made, and the CRCs catch any
// damage since (see package mapfile), so a pass over every arc on every
// run would guard against nothing but a file built by hand to pass its
// CRCs, which is not a threat the pipeline defends against. Such a file
// would give wrong answers or make a query panic on Go's bounds checks;
// the GPU kernels, which have none, could read outside their buffers.
package chfile
