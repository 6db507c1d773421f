package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path"

	"github.com/pathflow/pathflow/configs"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/compute"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/runlog"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// Compute is the compute command: it runs the shortest-path algorithm the
// configuration names and prints the output folder. Given no config file
// and no input, it runs the embedded demo config (configs/demo.yaml),
// which is what a first `compute` on a fresh clone should do.
func Compute() Command {
	return Command{Name: "compute", Keys: compute.Keys(),
		// The embedded demo resolves its paths as configs/demo.yaml does
		// run from the repository's root: its output is out/demo in the
		// working directory.
		Default:     &config.File{Name: configs.DemoName + " (embedded)", Raw: configs.Demo, Dir: path.Dir(configs.DemoName)},
		UsesDefault: noInput,
		Stage: printingOutDir(compute.ConfigFrom,
			func(c *compute.Config) (runlog.Settings, string) { return c.Log, c.OutDir },
			func(ctx context.Context, c *compute.Config, log *slog.Logger, progress io.Writer) (*compute.Result, error) {
				confineDevices(c, log)
				return compute.Run(ctx, c, log, progress)
			})}
}

// noInput reports whether the settings name no input at all.
func noInput(l *config.Loaded) bool {
	vs := l.Values()
	return vs.String(input.KeyInputPath) == "" && vs.String(input.KeyInputDataset) == "" &&
		vs.String(input.KeyInputGenerate) == ""
}

// Ingest is the ingest command: it reads a graph, writes its tables (or
// converts it) and prints the output folder.
func Ingest() Command {
	return Command{Name: "ingest", Keys: ingest.Keys(), Stage: printingOutDir(ingest.ConfigFrom,
		func(c *ingest.Config) (runlog.Settings, string) { return c.Log, c.OutDir }, ingest.Run)}
}

// printingOutDir turns a pipeline stage into a command's Stage: it reads
// the stage's configuration with configFrom, runs it with a logger on
// stderr that follows the configuration's log settings, and prints the
// output folder on stdout, the one line a script reads. settings gives a
// configuration's log settings and output folder.
func printingOutDir[C, R any](
	configFrom func(*config.Loaded) (C, error),
	settings func(C) (runlog.Settings, string),
	run func(ctx context.Context, cfg C, log *slog.Logger, progressOut io.Writer) (R, error),
) func(context.Context, *config.Loaded, Streams) error {
	return func(ctx context.Context, l *config.Loaded, out Streams) error {
		cfg, err := configFrom(l)
		if err != nil {
			return err
		}
		logSettings, outDir := settings(cfg)
		log := NewLogger(out.Stderr, logSettings.Format, logSettings.Quiet)
		if l.Default {
			log.Info("no config file and no input given: running the embedded demo config", "config", l.File)
		}
		if _, err := run(ctx, cfg, log, out.Stderr); err != nil {
			return err
		}
		if _, err := fmt.Fprintln(out.Stdout, outDir); err != nil {
			return &stageerr.OutputError{Err: fmt.Errorf("printing the output folder: %w", err)}
		}
		return nil
	}
}
