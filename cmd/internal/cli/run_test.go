package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/version"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

var keys = []config.Key{
	{Name: "output.dir", Default: "", Flag: "out", Usage: "out"},
	{Name: "compute.sources", Default: []string{"0"}, Flag: "sources", Usage: "sources"},
}

// echo is a command whose stage prints output.dir on stdout and then
// returns err.
func echo(err error) Command {
	return Command{Name: "compute", Keys: keys, Stage: func(_ context.Context, l *config.Loaded, out Streams) error {
		if _, werr := fmt.Fprintln(out.Stdout, l.Values().String("output.dir")); werr != nil {
			return werr
		}
		return err
	}}
}

// TestSignalEndsInTheErrorLine sends the process SIGINT and SIGTERM while
// a stage has a temporary open: the temporary is removed, the code is 130
// and the last line on stderr is the one error form every failure takes.
func TestSignalEndsInTheErrorLine(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		name string
	}{{syscall.SIGINT, "SIGINT"}, {syscall.SIGTERM, "SIGTERM"}} {
		t.Run(tc.name, func(t *testing.T) {
			final := filepath.Join(t.TempDir(), "result.txt")
			var stderr bytes.Buffer
			stage := func(ctx context.Context, _ *config.Loaded, _ Streams) error {
				f, err := atomicfile.Create(final)
				if err != nil {
					return err
				}
				defer f.Abort()
				if _, err := f.Write([]byte("partial")); err != nil {
					return err
				}
				if err := syscall.Kill(os.Getpid(), tc.sig); err != nil {
					return err
				}
				select {
				case <-ctx.Done():
					return fmt.Errorf("writing result.txt: %w", ctx.Err())
				case <-time.After(10 * time.Second):
					return errors.New("the stage was not cancelled")
				}
			}
			code := Run(Command{Name: "compute", Keys: keys, Stage: stage}, nil, nil, io.Discard, &stderr)
			if code != ExitInterrupted {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", code, ExitInterrupted, &stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			want := []string{
				"compute: " + tc.name + " received: stopping and removing temporaries",
				"compute: error: interrupted by " + tc.name + "; temporaries removed (exit 130)",
			}
			if strings.Join(lines, "\n") != strings.Join(want, "\n") {
				t.Errorf("stderr:\n%s\nwant:\n%s", &stderr, strings.Join(want, "\n"))
			}
			entries, err := os.ReadDir(filepath.Dir(final))
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 0 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		env    []string
		err    error // the stage's
		code   int
		stdout string
		stderr string // "" for nothing
	}{
		{name: "defaults", code: ExitOK, stdout: "\n"},
		{name: "flag over environment", args: []string{"-out", "flag"}, env: []string{"PATHFLOW_OUTPUT_DIR=env"}, code: ExitOK, stdout: "flag\n"},
		{name: "environment", env: []string{"PATHFLOW_OUTPUT_DIR=env"}, code: ExitOK, stdout: "env\n"},
		{name: "misspelled variable", env: []string{"PATHFLOW_OUTPUT_DIRS=x", "PATHFLOW_DATASETS=/d", "PATHFLOW_GPU_SYNC=1"}, code: ExitOK, stdout: "\n",
			stderr: "compute: warning: environment variable PATHFLOW_OUTPUT_DIRS matches no key and is ignored; did you mean PATHFLOW_OUTPUT_DIR (key output.dir)?\n"},
		{name: "renamed variable", env: []string{"PATHFLOW_COMPUTE=/opt/bin/compute"}, code: ExitOK, stdout: "\n",
			stderr: "compute: warning: environment variable PATHFLOW_COMPUTE matches no key and is ignored; it was renamed: deploy/slurm reads the compute binary's path from COMPUTE_BIN\n"},
		{name: "variables of the scripts and tests", env: []string{"COMPUTE_BIN=/opt/bin/compute", "REQUIRE_DUCKDB=1", "BENCH_COMPUTE_ARGS=-sources 0"},
			code: ExitOK, stdout: "\n"},
		{name: "bad flag", args: []string{"-nosuchflag"}, code: ExitConfig,
			stderr: "compute: error: unknown flag -nosuchflag (-help lists the flags) (exit 2)\n"},
		{name: "misspelled flag", args: []string{"-source", "3"}, code: ExitConfig,
			stderr: "compute: error: unknown flag -source (did you mean -sources?) (exit 2)\n"},
		{name: "key as a flag", args: []string{"-output.dir", "x"}, code: ExitConfig,
			stderr: "compute: error: unknown flag -output.dir (did you mean -out? key output.dir's flag) (exit 2)\n"},
		{name: "bad flag value", args: []string{"-sources"}, code: ExitConfig,
			stderr: "compute: error: flag needs an argument: -sources (-help lists the flags) (exit 2)\n"},
		{name: "help", args: []string{"-help"}, code: ExitOK},
		{name: "config error", err: config.Errorf("compute.sources", "bad"), code: ExitConfig, stdout: "\n",
			stderr: "compute: error: config key \"compute.sources\": bad (exit 2)\n"},
		{name: "input error", err: &stageerr.InputError{Err: errors.New("x.gr:3: bad arc")}, code: ExitInput, stdout: "\n",
			stderr: "compute: error: x.gr:3: bad arc (exit 3)\n"},
		{name: "compute error", err: &stageerr.ComputeError{Err: errors.New("negative cycle")}, code: ExitCompute, stdout: "\n",
			stderr: "compute: error: negative cycle (exit 4)\n"},
		{name: "output error", err: &stageerr.OutputError{Err: errors.New("disk full")}, code: ExitOutput, stdout: "\n",
			stderr: "compute: error: disk full (exit 5)\n"},
		{name: "internal error", err: errors.New("surprise"), code: ExitInternal, stdout: "\n",
			stderr: "compute: error: surprise (exit 1)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(echo(tc.err), tc.args, tc.env, &stdout, &stderr)
			if code != tc.code || stdout.String() != tc.stdout {
				t.Errorf("exit %d, stdout %q; want %d, %q", code, &stdout, tc.code, tc.stdout)
			}
			if tc.name == "help" {
				if !strings.Contains(stderr.String(), "-sources") {
					t.Errorf("help: %q", &stderr)
				}
				return
			}
			if stderr.String() != tc.stderr {
				t.Errorf("stderr:\n%q\nwant:\n%q", &stderr, tc.stderr)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	for _, arg := range []string{"-version", "--version"} {
		var stdout, stderr bytes.Buffer
		code := Run(echo(nil), []string{arg}, nil, &stdout, &stderr)
		want := "compute " + version.Version + " (go"
		if code != ExitOK || !strings.HasPrefix(stdout.String(), want) || strings.Count(stdout.String(), "\n") != 1 || stderr.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 0 and one line starting %q", arg, code, &stdout, &stderr, want)
		}
	}
}

// TestJSONMessages: under log.format json, from the file, a variable or a
// flag, the warnings and the final error line are JSON records, even when
// the configuration itself is what fails.
func TestJSONMessages(t *testing.T) {
	jsonKeys := append(slices.Clone(keys), config.Key{Name: "log.format", Default: "text", Flag: "log-format", Usage: "log format"})
	dir := t.TempDir()
	badFile := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(badFile, []byte("log:\n  format: json\noutput:\n  dri: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		env      []string
		err      error
		code     int
		warnings int
		msg      string
	}{
		{name: "stage error, variable", env: []string{"PATHFLOW_LOG_FORMAT=json", "PATHFLOW_OUTPUT_DIRS=x"},
			err: &stageerr.InputError{Err: errors.New("x.gr:3: bad arc")}, code: ExitInput, warnings: 1, msg: "x.gr:3: bad arc"},
		{name: "unknown flag, flag", args: []string{"-log-format", "json", "-nosuchflag"}, code: ExitConfig,
			msg: "unknown flag -nosuchflag (-help lists the flags)"},
		{name: "unknown key, file", args: []string{"-config", badFile}, code: ExitConfig,
			msg: `config key "output.dri": unknown key in ` + badFile + "; did you mean output.dir? (see configs/reference.yaml)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := echo(tc.err)
			cmd.Keys = jsonKeys
			code := Run(cmd, tc.args, tc.env, io.Discard, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			var records []map[string]any
			for _, line := range lines {
				var r map[string]any
				if err := json.Unmarshal([]byte(line), &r); err != nil {
					t.Fatalf("not a JSON record: %q (%v)", line, err)
				}
				records = append(records, r)
			}
			if len(records) != tc.warnings+1 {
				t.Fatalf("%d records, want %d warnings and the error:\n%s", len(records), tc.warnings, &stderr)
			}
			for _, r := range records[:tc.warnings] {
				if r["level"] != "WARN" || r["command"] != "compute" {
					t.Errorf("warning record %v", r)
				}
			}
			last := records[len(records)-1]
			if last["level"] != "ERROR" || last["command"] != "compute" || last["msg"] != tc.msg || last["exit"] != float64(tc.code) {
				t.Errorf("error record %v, want msg %q and exit %d", last, tc.msg, tc.code)
			}
		})
	}
}
