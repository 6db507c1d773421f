// Package input loads the graph a stage runs on, from whatever the input
// keys name: a DIMACS, SNAP or binary file (gzip or not, the format told
// from its bytes), a dataset of the manifest, a generator spec, or an
// ingest output, whose files are checked against its manifest as they are
// read and whose reload file is mapped instead of decoding the tables.
// It owns the input.* keys (Keys, ReadSpec), the dense and original
// vertex ids (VertexIDs) and the memory check that refuses a graph too
// large for this machine before the large allocations.
package input
