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
	"context"
	"fmt"
	"io"
	"os"

	"github.com/pathflow/pathflow/internal/cli"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline"

	// The CUDA backend registers itself in builds with -tags cuda; other
	// builds register nothing and run on the CPU.
	_ "github.com/pathflow/pathflow/internal/gpu"
)

func main() {
	os.Exit(run(os.Args[1:], os.Environ(), os.Stdout, os.Stderr))
}

// run is the whole command: args without the program name, the
// environment as "NAME=value" pairs, and the streams it writes to. It
// returns the exit code.
func run(args, env []string, stdout, stderr io.Writer) int {
	cmd := cli.Command{Name: "compute", Keys: pipeline.ComputeKeys(), Stage: compute}
	return cli.Run(cmd, args, env, stdout, stderr)
}

// compute validates the configuration, runs the stage and prints the
// output folder.
func compute(ctx context.Context, l *config.Loaded, out cli.Streams) error {
	cfg, err := pipeline.ComputeConfigFrom(l)
	if err != nil {
		return err
	}
	log := pipeline.NewLogger(out.Stderr, cfg.Log.Format, cfg.Log.Quiet)
	if _, err := pipeline.Compute(ctx, cfg, log, out.Stderr); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(out.Stdout, cfg.OutDir); err != nil {
		return &pipeline.OutputError{Err: fmt.Errorf("printing the output folder: %w", err)}
	}
	return nil
}
