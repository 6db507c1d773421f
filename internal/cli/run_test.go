package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline"
)

var keys = []config.Key{{Name: "output.dir", Default: "", Flag: "out", Usage: "out"}}

func TestSignalRemovesTemporariesAndExits130(t *testing.T) {
	final := filepath.Join(t.TempDir(), "result.txt")
	code := Main("compute", keys, nil, io.Discard, func(ctx context.Context, l *config.Loaded) error {
		f, err := atomicfile.Create(final)
		if err != nil {
			return err
		}
		defer f.Abort()
		if _, err := f.Write([]byte("partial")); err != nil {
			return err
		}
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Second):
			return errors.New("the stage was not cancelled")
		}
	})
	if code != pipeline.ExitInterrupted {
		t.Fatalf("exit code %d, want %d", code, pipeline.ExitInterrupted)
	}
	entries, _ := os.ReadDir(filepath.Dir(final))
	if len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestExitCodes(t *testing.T) {
	if code := Main("compute", keys, []string{"-nosuchflag"}, io.Discard, nil); code != pipeline.ExitConfig {
		t.Errorf("bad flag: exit %d, want %d", code, pipeline.ExitConfig)
	}
	if code := Main("compute", keys, []string{"-help"}, io.Discard, nil); code != pipeline.ExitOK {
		t.Errorf("-help: exit %d, want 0", code)
	}
	stage := func(err error) Stage {
		return func(context.Context, *config.Loaded) error { return err }
	}
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, pipeline.ExitOK},
		{config.Errorf("compute.sources", "bad"), pipeline.ExitConfig},
		{&pipeline.InputError{Err: errors.New("x.gr:3: bad arc")}, pipeline.ExitInput},
		{&pipeline.ComputeError{Err: errors.New("negative cycle")}, pipeline.ExitCompute},
		{&pipeline.OutputError{Err: errors.New("disk full")}, pipeline.ExitOutput},
		{errors.New("surprise"), pipeline.ExitInternal},
	} {
		if code := Main("compute", keys, nil, io.Discard, stage(tc.err)); code != tc.want {
			t.Errorf("%v: exit %d, want %d", tc.err, code, tc.want)
		}
	}
}
