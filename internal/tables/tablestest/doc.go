// Package tablestest holds what the tests of the table packages (tables
// and resultfiles) share: seeds that are replayable, checked allocators,
// byte and metadata comparisons of written files, the check that each
// Parquet column carries the encoding meant for it, and the CPU-time
// metric their benchmarks report.
//
// It imports neither table package, so that the in-package tests of
// either can use it without an import cycle; callers pass the fields of
// their own types.
package tablestest
