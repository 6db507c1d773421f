// Command compute runs the shortest-path algorithm a config names on a
// graph (an ingest output or a raw input file) and writes distances and
// parents as Parquet or Arrow IPC, with a run manifest:
//
//	compute -config=configs/rome99.yaml
//
// See the README for keys, outputs and exit codes.
package main

import (
	"context"
	"os"

	"github.com/pathflow/pathflow/internal/cli"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline"

	// The CUDA backend registers itself in builds with -tags cuda; other
	// builds register nothing and run on the CPU.
	_ "github.com/pathflow/pathflow/internal/gpu"
)

func main() {
	os.Exit(cli.Main("compute", pipeline.ComputeKeys(), os.Args[1:], os.Stderr, func(ctx context.Context, l *config.Loaded) error {
		cfg, err := pipeline.ComputeConfigFrom(l)
		if err != nil {
			return err
		}
		log := pipeline.NewLogger(os.Stderr, cfg.Log.Format, cfg.Log.Quiet)
		_, err = pipeline.Compute(ctx, cfg, log, os.Stderr)
		return err
	}))
}
