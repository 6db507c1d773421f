package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline"
)

// OtherVariables are the PATHFLOW_* environment variables pathflow's
// commands read that are not configuration keys: the dataset mirror, and
// the GPU backend's launch debugging switch (gpu.SyncEnv, declared only in
// cuda builds). They draw no "matches no key" warning.
var OtherVariables = []string{datasets.MirrorEnv, "PATHFLOW_GPU_SYNC"}

// Streams are where a command writes: results a script may read on
// Stdout, logs, warnings and errors on Stderr.
type Streams struct {
	Stdout, Stderr io.Writer
}

// Command is one of pathflow's commands: its configuration keys and its
// work.
type Command struct {
	// Name prefixes every message ("compute: error: ...").
	Name string
	// Keys are the configuration keys the command reads.
	Keys []config.Key
	// Stage does the work with a context that is cancelled on SIGINT or
	// SIGTERM.
	Stage func(ctx context.Context, l *config.Loaded, out Streams) error
}

// Run loads cmd's configuration from args (without the program name) and
// env ("NAME=value" pairs), runs its stage and returns the exit code
// documented in the README. A signal cancels the stage's context; whatever
// the stage has not committed is removed and the code is 130. Every
// failure is one line on stderr: "NAME: error: MESSAGE (exit N)".
func Run(cmd Command, args, env []string, stdout, stderr io.Writer) int {
	l, err := config.Read(cmd.Name, cmd.Keys, config.Source{Args: args, Env: env, OtherVariables: OtherVariables, Usage: stderr})
	if errors.Is(err, flag.ErrHelp) {
		return pipeline.ExitOK
	}
	if err != nil {
		return fail(stderr, cmd.Name, err, pipeline.ExitConfig)
	}
	for _, w := range l.Warnings {
		report(stderr, "%s: warning: %s\n", cmd.Name, w)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupted := cancelOnSignal(ctx, cancel, stderr, cmd.Name)

	err = cmd.Stage(ctx, l, Streams{Stdout: stdout, Stderr: stderr})
	select {
	case <-interrupted:
		atomicfile.AbortAll()
		return pipeline.ExitInterrupted
	default:
	}
	if err != nil {
		atomicfile.AbortAll()
		return fail(stderr, cmd.Name, err, pipeline.ExitCode(err))
	}
	return pipeline.ExitOK
}

// cancelOnSignal cancels ctx on SIGINT or SIGTERM and returns a channel
// closed when that happened. It stops listening when ctx ends.
func cancelOnSignal(ctx context.Context, cancel context.CancelFunc, stderr io.Writer, name string) <-chan struct{} {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	interrupted := make(chan struct{})
	go func() {
		defer signal.Stop(signals)
		select {
		case sig := <-signals:
			report(stderr, "%s: %v: stopping and removing temporaries\n", name, sig)
			close(interrupted)
			cancel()
		case <-ctx.Done():
		}
	}()
	return interrupted
}

// fail prints err in the one form every failure takes and returns code.
func fail(stderr io.Writer, name string, err error, code int) int {
	report(stderr, "%s: error: %v (exit %d)\n", name, err, code)
	return code
}

// report writes a message to stderr, deliberately dropping a write error:
// a failed write there has nowhere else to go, and the exit code still
// tells the scheduler what happened.
func report(stderr io.Writer, format string, args ...any) {
	_, _ = fmt.Fprintf(stderr, format, args...)
}
