// Command ingest reads a graph (DIMACS, SNAP, binary n/m/triple, or a
// dataset from the manifest; the format is told from the bytes) and writes
// its edges and vertices tables as Parquet (the default) or Arrow IPC, or
// converts it to one binary or DIMACS file for other tools; beside the tables
// it stores a contraction hierarchy of a road-like graph (-hierarchy auto,
// on or off) for compute's ch:
//
//	ingest -input roads.gr -out out/roads
//
// On success it prints the output folder on stdout; logs and errors go to
// stderr. See the README for flags, keys and exit codes.
package main

import (
	"os"

	"github.com/pathflow/pathflow/cmd/internal/cli"
)

func main() {
	os.Exit(cli.Main(cli.Ingest()))
}
