// Command compute runs the shortest-path algorithm a config names on a
// graph (an ingest output or a raw input file) and writes distances,
// parents and the vertices table as Parquet or Arrow IPC, with a run
// manifest:
//
//	compute -config=configs/rome99.yaml
//
// On success it prints the output folder on stdout; logs and errors go to
// stderr. See the README for keys, outputs and exit codes.
package main

import (
	"os"

	"github.com/pathflow/pathflow/cmd/internal/cli"

	// The backends register themselves when linked in: the CPU always, the
	// CUDA backend in builds with -tags cuda (other builds register nothing
	// from it and run on the CPU).
	_ "github.com/pathflow/pathflow/internal/cpu"
	_ "github.com/pathflow/pathflow/internal/gpu"
)

func main() {
	os.Exit(cli.Main(cli.Compute()))
}
