// Package pairlist reads a pair list, the source-target pairs a compute
// run answers (compute.pairs), whatever file it comes in: CSV, plain or
// gzip-compressed (formats.ReadPairsCSV), or a Parquet or Arrow IPC table
// (tables.ScanPairs), told apart by the file's first bytes. It sits above
// both readers so that neither imports the other.
package pairlist
