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

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline"
)

// Stage runs one command's work with a context that is cancelled on
// SIGINT or SIGTERM.
type Stage func(ctx context.Context, l *config.Loaded) error

// Main loads the configuration of command name from args, runs stage and
// returns the exit code. A signal cancels the stage's context; whatever
// the stage has not committed is removed and the code is 130.
func Main(name string, keys []config.Key, args []string, stderr io.Writer, stage Stage) int {
	l, err := config.Load(name, keys, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return pipeline.ExitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return pipeline.ExitConfig
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(signals)
	interrupted := make(chan struct{})
	go func() {
		if sig, ok := <-signals; ok {
			fmt.Fprintf(stderr, "%s: %v: stopping and removing temporaries\n", name, sig)
			close(interrupted)
			cancel()
		}
	}()

	err = stage(ctx, l)
	select {
	case <-interrupted:
		atomicfile.AbortAll()
		return pipeline.ExitInterrupted
	default:
	}
	if err != nil {
		atomicfile.AbortAll()
		code := pipeline.ExitCode(err)
		fmt.Fprintf(stderr, "%s: error: %v (exit %d)\n", name, err, code)
		return code
	}
	return pipeline.ExitOK
}
