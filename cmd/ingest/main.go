// Command ingest reads a graph (DIMACS, SNAP, binary n/m/triple, or a
// dataset from the manifest; the format is told from the bytes) and writes
// its edges and vertices tables as Parquet (the default) or Arrow IPC, or
// converts it to one binary or DIMACS file for other tools. See the README
// for flags, keys and exit codes.
package main

import (
	"context"
	"os"

	"github.com/pathflow/pathflow/internal/cli"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline"
)

func main() {
	os.Exit(cli.Main("ingest", pipeline.IngestKeys(), os.Args[1:], os.Stderr, func(ctx context.Context, l *config.Loaded) error {
		cfg, err := pipeline.IngestConfigFrom(l)
		if err != nil {
			return err
		}
		log := pipeline.NewLogger(os.Stderr, cfg.Log.Format, cfg.Log.Quiet)
		_, err = pipeline.Ingest(ctx, cfg, log, os.Stderr)
		return err
	}))
}
