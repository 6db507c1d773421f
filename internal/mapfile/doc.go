// Package mapfile holds what the mapped files of an ingest output share
// (the graph's reload file, package csrfile; the contraction hierarchy's,
// package chfile): raw little-endian arrays that start on 4 KiB
// boundaries, the CRC-32C (Castagnoli) of every block of them in a table
// at the end of the file, a header CRC, one checksum that stands for the
// whole file, and a copy-on-write mapping of it. Each file kind keeps its
// own magic, header and layout; this package knows none of them.
//
// Why CRCs and not a hash: the files are written by our own ingest and
// listed, checksum and all, in its manifest. What they must catch is
// damage (a flipped bit on disk or in a copy, a truncated or extended
// file, a file of another run), which a CRC-32C per block catches (every
// burst of up to 32 bits, any other damage but for one chance in 2^32),
// at memory speed with the CPU's CRC instructions on every core. A file
// built by hand to pass its CRCs is not a threat the pipeline defends
// against.
package mapfile
