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
	"github.com/pathflow/pathflow/pipeline/runlog"
)

// OtherVariables are the PATHFLOW_* environment variables pathflow's
// commands read that are not configuration keys: the dataset mirror, the
// CPU profile (ProfileEnv), and the GPU backend's launch debugging switch
// (gpu.SyncEnv, declared only in cuda builds). They draw no "matches no
// key" warning.
//
// The list holds only variables the commands themselves read. Variables
// that configure the scripts and tests around them (the Slurm scripts'
// COMPUTE_BIN, the tests' REQUIRE_DUCKDB, BENCH_COMPUTE_ARGS) are named
// outside the prefix instead of listed here: every name listed is one a
// misspelled key can no longer be warned about, and a job's environment
// (exported by a user or a scheduler for the scripts) should not make the
// command warn on every task about variables it never reads.
var OtherVariables = []string{datasets.MirrorEnv, ProfileEnv, "PATHFLOW_GPU_SYNC"}

// RenamedVariables are variables that scripts and tests once read under
// the PATHFLOW_ prefix, with what replaced them: a job environment that
// still exports one is told the new name, not a key that merely looks
// alike (PATHFLOW_COMPUTE is not PATHFLOW_COMPUTE_IDS).
var RenamedVariables = map[string]string{
	"PATHFLOW_COMPUTE":        "deploy/slurm reads the compute binary's path from COMPUTE_BIN",
	"PATHFLOW_REQUIRE_DUCKDB": "the tests read REQUIRE_DUCKDB",
	"PATHFLOW_BENCH_ARGS":     "BenchmarkComputeRun reads BENCH_COMPUTE_ARGS",
}

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
	// Default, when not nil, is the config the command reads when the
	// arguments name no file and UsesDefault says that the settings from
	// the environment and flags alone cannot run.
	Default *config.File
	// UsesDefault decides, from the settings without a file, whether
	// Default is read.
	UsesDefault func(l *config.Loaded) bool
	// Stage does the work with a context that is cancelled on SIGINT or
	// SIGTERM.
	Stage func(ctx context.Context, l *config.Loaded, out Streams) error
}

// Run loads cmd's configuration from args (without the program name) and
// env ("NAME=value" pairs), runs its stage and returns the exit code
// documented in the README. A signal cancels the stage's context; whatever
// the stage has not committed is removed and the code is 130. Every
// failure, an interruption included, ends with one line on stderr:
// "NAME: error: MESSAGE (exit N)".
func Run(cmd Command, args, env []string, stdout, stderr io.Writer) int {
	src := config.Source{Args: args, Env: env, OtherVariables: OtherVariables, RenamedVariables: RenamedVariables, Usage: stderr}
	l, err := config.Read(cmd.Name, cmd.Keys, src)
	if err == nil && l.File == "" && cmd.Default != nil && cmd.UsesDefault(l) {
		src.Default = cmd.Default
		l, err = config.Read(cmd.Name, cmd.Keys, src)
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.Is(err, config.ErrVersion):
		report(stdout, "%s\n", versionText(cmd.Name))
		return ExitOK
	}
	// The messages follow log.format, read as far as it can be when the
	// configuration does not load.
	var format string
	if err == nil {
		format = l.V.GetString(runlog.KeyLogFormat)
	} else {
		format = config.Peek(cmd.Keys, src, runlog.KeyLogFormat)
	}
	msgs := newMessages(stderr, cmd.Name, format)
	if err != nil {
		return msgs.fail(err, ExitConfig)
	}
	for _, w := range l.Warnings {
		msgs.warn("%s", w)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupted := cancelOnSignal(ctx, cancel, msgs)

	stopProfile := startProfile(env, msgs)
	err = cmd.Stage(ctx, l, Streams{Stdout: stdout, Stderr: stderr})
	stopProfile()
	if err == nil {
		// Done and committed, even if a signal came too late to stop it:
		// the outputs are in place, as exit 0 says.
		return ExitOK
	}
	select {
	case sig := <-interrupted:
		// The stage's own error is a consequence of the cancellation
		// (context canceled, a half-written file): the signal is the
		// cause a scheduler's log should show.
		atomicfile.AbortAll()
		return msgs.fail(fmt.Errorf("interrupted by %s; temporaries removed", signalName(sig)), ExitInterrupted)
	default:
	}
	atomicfile.AbortAll()
	return msgs.fail(err, ExitCode(err))
}

// cancelOnSignal cancels ctx on SIGINT or SIGTERM and returns a channel
// that then delivers the signal. It stops listening when ctx ends, and
// after the first signal, so that a second one ends a run whose clean-up
// hangs the way it would end any program.
func cancelOnSignal(ctx context.Context, cancel context.CancelFunc, msgs messages) <-chan os.Signal {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	interrupted := make(chan os.Signal, 1)
	go func() {
		if !supervisedChild { // a supervisor deals with a second signal
			defer signal.Stop(signals)
		}
		select {
		case sig := <-signals:
			// A notice now, since removing temporaries may take a while;
			// the error line follows once the stage has returned.
			msgs.notice("%s received: stopping and removing temporaries", signalName(sig))
			interrupted <- sig
			cancel()
		case <-ctx.Done():
		}
	}()
	return interrupted
}

// signalName names sig as schedulers and kill(1) do ("SIGTERM"), which
// os.Signal's String ("terminated") does not.
func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGKILL:
		return "SIGKILL"
	default:
		return sig.String()
	}
}
