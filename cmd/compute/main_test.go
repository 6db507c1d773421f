package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pathflow/pathflow/cmd/internal/cli"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/compute"
	"github.com/pathflow/pathflow/pipeline/output"
)

// tiny is a generated graph small enough that a whole run takes
// milliseconds.
const tiny = "grid:side=4,lo=1,hi=9,seed=2"

// commandCase is one run of the command as a scheduler would start it.
// In args, env and file, {tmp} stands for a fresh temporary folder.
type commandCase struct {
	name string
	args []string
	env  []string
	file string // the -config file's text; "" for no file
	code int
	// out is the folder the run must write and print, "" for none.
	out string
	// stderr lists what the messages must say.
	stderr []string
}

func TestCommand(t *testing.T) {
	cycle := "p sp 3 3\na 1 2 1\na 2 3 -2\na 3 2 1\n"
	for _, tc := range []commandCase{
		{name: "file over defaults", file: "input:\n  generate: " + tiny + "\noutput:\n  dir: {tmp}/file\n",
			code: cli.ExitOK, out: "{tmp}/file"},
		{name: "environment over file", file: "input:\n  generate: " + tiny + "\noutput:\n  dir: {tmp}/file\n",
			env: []string{"PATHFLOW_OUTPUT_DIR={tmp}/env"}, code: cli.ExitOK, out: "{tmp}/env"},
		{name: "flag over environment", file: "input:\n  generate: " + tiny + "\noutput:\n  dir: {tmp}/file\n",
			env: []string{"PATHFLOW_OUTPUT_DIR={tmp}/env"}, args: []string{"-out", "{tmp}/flag"}, code: cli.ExitOK, out: "{tmp}/flag"},
		{name: "no config and no input runs the embedded demo", args: []string{"-out", "{tmp}/demo"}, code: cli.ExitOK, out: "{tmp}/demo",
			stderr: []string{"running the embedded demo config", "configs/demo.yaml (embedded)", "n=4096"}},
		{name: "an input without a config is not the demo", args: []string{"-generate", tiny, "-out", "{tmp}/o"}, code: cli.ExitOK, out: "{tmp}/o",
			stderr: []string{"n=16"}},
		{name: "flags alone", args: []string{"-generate", tiny, "-out={tmp}/flags", "-backend", "cpu", "-quiet"},
			code: cli.ExitOK, out: "{tmp}/flags"},
		{name: "misspelled variable", args: []string{"-generate", tiny, "-out", "{tmp}/o"},
			env: []string{"PATHFLOW_COMPUTE_SOURCE=3", "PATHFLOW_DATASETS=/nowhere"}, code: cli.ExitOK, out: "{tmp}/o",
			stderr: []string{"compute: warning: environment variable PATHFLOW_COMPUTE_SOURCE matches no key", "did you mean PATHFLOW_COMPUTE_SOURCES (key compute.sources)?"}},
		{name: "unknown key", file: "compute:\n  backnd: gpu\n", code: cli.ExitConfig,
			stderr: []string{`compute: error: config key "compute.backnd": unknown key in`, "(exit 2)"}},
		{name: "unknown flag", args: []string{"-backnd", "gpu"}, code: cli.ExitConfig,
			stderr: []string{"compute: error: unknown flag -backnd (did you mean -backend?) (exit 2)"}},
		{name: "misspelled key", file: "compute:\n  sorces: [1]\n", code: cli.ExitConfig,
			stderr: []string{`compute: error: config key "compute.sorces": unknown key in {tmp}/c.yaml; did you mean compute.sources?`, "(exit 2)"}},
		{name: "stray argument", args: []string{"-generate", tiny, "extra"}, code: cli.ExitConfig,
			stderr: []string{`unexpected argument "extra" (exit 2)`}},
		{name: "missing config file", args: []string{"-config={tmp}/none.yaml"}, code: cli.ExitConfig,
			stderr: []string{"none.yaml", "(exit 2)"}},
		{name: "bad variable value", args: []string{"-generate", tiny}, env: []string{"PATHFLOW_COMPUTE_WORKERS=many"},
			code: cli.ExitConfig, stderr: []string{"PATHFLOW_COMPUTE_WORKERS", `"many" is not an integer (exit 2)`}},
		{name: "bad value", args: []string{"-generate", tiny, "-backend", "tpu"}, code: cli.ExitConfig,
			stderr: []string{`config key "compute.backend": "tpu" is not one of`}},
		{name: "help", args: []string{"-help"}, code: cli.ExitOK, stderr: []string{"-sources", "PATHFLOW_COMPUTE_SOURCES",
			"-devices", "PATHFLOW_COMPUTE_DEVICES", "-gpu-memory-limit", "PATHFLOW_GPU_MEMORY_LIMIT"}},
		{name: "device keys on the CPU", file: "input:\n  generate: " + tiny + "\ncompute:\n  devices: [0, 0]\ngpu:\n  memory_limit: 512 MiB\n",
			args: []string{"-backend", "cpu", "-out", "{tmp}/d"}, code: cli.ExitOK, out: "{tmp}/d"},
		{name: "negative device variable", args: []string{"-generate", tiny}, env: []string{"PATHFLOW_COMPUTE_DEVICES=0,-1"},
			code: cli.ExitConfig, stderr: []string{`config key "compute.devices"`, `"0,-1"`, "(exit 2)"}},
		{name: "non-integer device flag", args: []string{"-generate", tiny, "-devices", "0,x"}, code: cli.ExitConfig,
			stderr: []string{`config key "compute.devices"`, `"0,x"`, "(exit 2)"}},
		{name: "empty device list", file: "input:\n  generate: " + tiny + "\ncompute:\n  devices: []\n", code: cli.ExitConfig,
			stderr: []string{`config key "compute.devices": is an empty list`, "(exit 2)"}},
		{name: "negative memory limit flag", args: []string{"-generate", tiny, "-gpu-memory-limit", "-1GiB"}, code: cli.ExitConfig,
			stderr: []string{`config key "gpu.memory_limit"`, `"-1GiB" is negative`, "(exit 2)"}},
		{name: "malformed memory limit variable", args: []string{"-generate", tiny}, env: []string{"PATHFLOW_GPU_MEMORY_LIMIT=10XB"},
			code: cli.ExitConfig, stderr: []string{`config key "gpu.memory_limit"`, `"10XB" is not a byte size`, "(exit 2)"}},
		{name: "unknown original id", args: []string{"-input", "{tmp}/cycle.gr", "-ids", "original", "-sources", "0", "-out", "{tmp}/o"},
			code: cli.ExitConfig, stderr: []string{`config key "compute.sources": source 0: no vertex has that original id`}},
		{name: "missing input", args: []string{"-input", "{tmp}/none.gr", "-out", "{tmp}/o"}, code: cli.ExitInput,
			stderr: []string{"compute: error: input.path: {tmp}/none.gr: no such file or directory (exit 3)"}},
		{name: "missing input named in a file", file: "input:\n  path: none.gr\n", args: []string{"-out", "{tmp}/o"}, code: cli.ExitInput,
			stderr: []string{"compute: error: input.path: {tmp}/none.gr: no such file or directory (exit 3)"}},
		{name: "negative cycle", args: []string{"-input", "{tmp}/cycle.gr", "-algorithm", "bellman-ford", "-backend", "cpu", "-out", "{tmp}/o"},
			code: cli.ExitCompute, stderr: []string{"compute: error: negative cycle through vertex 2 (dense id 1)", "2 -> 3 -> 2", "(exit 4)"}},
		{name: "output under a file", args: []string{"-generate", tiny, "-out", "{tmp}/cycle.gr/o"}, code: cli.ExitOutput,
			stderr: []string{"cycle.gr", "(exit 5)"}},
		{name: "output into a folder of the user's files", args: []string{"-generate", tiny, "-out", "{tmp}"}, code: cli.ExitOutput,
			stderr: []string{"compute: error: {tmp} holds cycle.gr, which pathflow did not write", "output.overwrite: replace", "(exit 5)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			if err := os.WriteFile(filepath.Join(tmp, "cycle.gr"), []byte(cycle), 0o644); err != nil {
				t.Fatal(err)
			}
			fill := func(list []string) []string {
				out := make([]string, len(list))
				for i, s := range list {
					out[i] = strings.ReplaceAll(s, "{tmp}", tmp)
				}
				return out
			}
			args := fill(tc.args)
			if tc.file != "" {
				path := filepath.Join(tmp, "c.yaml")
				if err := os.WriteFile(path, []byte(fill([]string{tc.file})[0]), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append([]string{"-config=" + path}, args...)
			}
			var stdout, stderr bytes.Buffer
			code := cli.Run(cli.Compute(), args, fill(tc.env), &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, &stderr)
			}
			for _, want := range fill(tc.stderr) {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr does not say %q:\n%s", want, &stderr)
				}
			}
			checkOutput(t, fill([]string{tc.out})[0], stdout.String())
		})
	}
}

// checkOutput checks that a run printed and committed out, or printed
// nothing when out is "".
func checkOutput(t *testing.T, out, stdout string) {
	t.Helper()
	if out == "" {
		if stdout != "" {
			t.Errorf("stdout %q, want nothing", stdout)
		}
		return
	}
	if stdout != out+"\n" {
		t.Errorf("stdout %q, want the output folder %s", stdout, out)
	}
	m, err := output.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range m.Files {
		names = append(names, f.Path)
	}
	if !slices.Contains(names, "vertices.parquet") || !slices.Contains(names, "distances/part-00000.parquet") {
		t.Errorf("manifest lists %v", names)
	}
}

func TestDefaultOutputFolderIsRelativeToTheWorkingDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	var stdout, stderr bytes.Buffer
	if code := cli.Run(cli.Compute(), []string{"-generate", tiny, "-algorithm", "dijkstra"}, nil, &stdout, &stderr); code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, &stderr)
	}
	checkOutput(t, filepath.Join("out", "grid-dijkstra"), stdout.String())
}

// TestEmbeddedDemoWritesInTheWorkingDirectory: the embedded demo's output
// folder is out/demo in the working directory, as the README promises,
// even though configs/demo.yaml writes ../out/demo (beside configs/).
func TestEmbeddedDemoWritesInTheWorkingDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	var stdout, stderr bytes.Buffer
	if code := cli.Run(cli.Compute(), []string{"-quiet"}, nil, &stdout, &stderr); code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, &stderr)
	}
	checkOutput(t, filepath.Join("out", "demo"), stdout.String())
}

// failingWriter fails every write, as a closed pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestUnwritableStdoutIsAnOutputError(t *testing.T) {
	var stderr bytes.Buffer
	code := cli.Run(cli.Compute(), []string{"-generate", tiny, "-out", filepath.Join(t.TempDir(), "o")}, nil, failingWriter{}, &stderr)
	if code != cli.ExitOutput || !strings.Contains(stderr.String(), "broken pipe") {
		t.Errorf("exit %d, stderr %q; want exit %d naming the write error", code, &stderr, cli.ExitOutput)
	}
}

// TestFlagsToConfig parses real arguments, variables and files into the
// compute configuration and checks the values, flags over environment
// over file over defaults, key by key.
func TestFlagsToConfig(t *testing.T) {
	file := "input:\n  generate: " + tiny + "\ncompute:\n  sources: [1, 2]\n  workers: 3\n  summary: true\n  ids: original\n  devices: [0, 0]\n" +
		"gpu:\n  memory_limit: 10GiB\n"
	for _, tc := range []struct {
		name  string
		args  []string
		env   []string
		check func(c *compute.Config) bool
	}{
		{"defaults", nil, nil, func(c *compute.Config) bool {
			return c.Backend == compute.BackendAuto && c.Algorithm == backend.AlgorithmAuto && c.Parents && !c.SkipIfSame &&
				c.Device.Devices == nil && c.Device.MemoryLimit == 0
		}},
		{"file", nil, nil, func(c *compute.Config) bool {
			return slices.Equal(c.Sources, []string{"1", "2"}) && c.Workers == 3 && c.Summary && c.OriginalIDs &&
				slices.Equal(c.Device.Devices, []int{0, 0}) && c.Device.MemoryLimit == 10<<30
		}},
		{"environment over file", nil, []string{"PATHFLOW_COMPUTE_WORKERS=5", "PATHFLOW_COMPUTE_SOURCES=4,5", "PATHFLOW_COMPUTE_IDS=dense",
			"PATHFLOW_COMPUTE_DEVICES=1,0", "PATHFLOW_GPU_MEMORY_LIMIT=2GB"},
			func(c *compute.Config) bool {
				return c.Workers == 5 && slices.Equal(c.Sources, []string{"4", "5"}) && !c.OriginalIDs && c.Summary &&
					slices.Equal(c.Device.Devices, []int{1, 0}) && c.Device.MemoryLimit == 2e9
			}},
		{"flags over environment", []string{"-workers", "7", "-sources", "6", "-summary=false", "-parents=false", "-devices", "all", "-gpu-memory-limit", "0"},
			[]string{"PATHFLOW_COMPUTE_WORKERS=5", "PATHFLOW_COMPUTE_SOURCES=4,5", "PATHFLOW_COMPUTE_DEVICES=1,0", "PATHFLOW_GPU_MEMORY_LIMIT=2GB"},
			func(c *compute.Config) bool {
				return c.Workers == 7 && slices.Equal(c.Sources, []string{"6"}) && !c.Summary && !c.Parents &&
					c.Device.Devices == nil && c.Device.MemoryLimit == 0
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.name != "defaults" {
				path := filepath.Join(t.TempDir(), "c.yaml")
				if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append([]string{"-config=" + path}, args...)
			} else {
				args = []string{"-generate", tiny}
			}
			l, err := config.Read("compute", compute.Keys(), config.Source{Args: args, Env: tc.env, OtherVariables: cli.OtherVariables})
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := compute.ConfigFrom(l)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(cfg) {
				t.Errorf("unexpected configuration %+v", cfg)
			}
		})
	}
}

// asMainEnv makes the test binary run main instead of the tests, so that a
// test can start the command as a separate process and signal it.
const asMainEnv = "COMPUTE_TEST_AS_MAIN"

// childArgs, in the environment, makes the test binary run the compute
// command with these arguments (one per line) instead of the tests, in a
// process of its own (the cuda build's tests load the driver once per
// process, so each situation needs a fresh one).
const childArgs = "COMPUTE_TEST_ARGS"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		main()
	}
	if args, ok := os.LookupEnv(childArgs); ok {
		os.Exit(cli.Run(cli.Compute(), strings.Split(args, "\n"), os.Environ(), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// sigtermAfter runs the command as its own process with args, sends it
// SIGTERM once a line on its stderr contains trigger, and returns its
// stderr lines, how it ended, and when the signal went (zero when no line
// matched). A run that does not end within two minutes is killed.
func sigtermAfter(t *testing.T, trigger string, args ...string) (lines []string, signalled time.Time, err error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	stderrPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killer := time.AfterFunc(2*time.Minute, func() { _ = cmd.Process.Kill() })
	defer killer.Stop()
	scanner := bufio.NewScanner(stderrPipe)
	for scanner.Scan() {
		lines = append(lines, scanner.Text())
		if signalled.IsZero() && strings.Contains(scanner.Text(), trigger) {
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			signalled = time.Now()
		}
	}
	return lines, signalled, cmd.Wait()
}

// wantInterrupted checks that a run ended by SIGTERM exited 130 with the
// error line last on stderr.
func wantInterrupted(t *testing.T, lines []string, err error) {
	t.Helper()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != cli.ExitInterrupted {
		t.Fatalf("wait: %v, want exit %d; stderr:\n%s", err, cli.ExitInterrupted, strings.Join(lines, "\n"))
	}
	want := "compute: error: interrupted by SIGTERM; temporaries removed (exit 130)"
	if last := lines[len(lines)-1]; last != want {
		t.Errorf("last line on stderr %q, want %q; stderr:\n%s", last, want, strings.Join(lines, "\n"))
	}
}

// TestSIGTERMEndsInTheErrorLine starts the command as its own process on a
// job that runs for minutes, sends it SIGTERM once it has planned, and
// checks what a scheduler sees: exit 130, the error form as the last line
// on stderr, and no output or temporary left behind.
func TestSIGTERMEndsInTheErrorLine(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "o")
	lines, signalled, err := sigtermAfter(t, "msg=plan", "-generate", "grid:side=300,lo=1,hi=9,seed=1", "-sources", "all",
		"-algorithm", "dijkstra", "-backend", "cpu", "-parents=false", "-out", out)
	if signalled.IsZero() {
		t.Fatalf("no plan line to signal after; stderr:\n%s", strings.Join(lines, "\n"))
	}
	wantInterrupted(t, lines, err)
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind in the output's folder: %s", e.Name())
	}
}

// TestSIGTERMEndsTheWaitForTheOutputLock: a run whose commit waits for
// another host's lock on its output folder (up to minutes) ends promptly on
// SIGTERM, as it would at any other point: exit 130, the error line, no
// output, and the other holder's lock left alone.
func TestSIGTERMEndsTheWaitForTheOutputLock(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "o")
	lock := filepath.Join(parent, ".o.lock")
	held := "1 another-host - - 0123\n"
	if err := os.WriteFile(lock, []byte(held), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, signalled, err := sigtermAfter(t, "waiting for a lock", "-generate", "grid:side=8,lo=1,hi=9,seed=1", "-sources", "0",
		"-algorithm", "dijkstra", "-backend", "cpu", "-out", out)
	if signalled.IsZero() {
		t.Fatalf("no line about the lock wait to signal after; stderr:\n%s", strings.Join(lines, "\n"))
	}
	if took := time.Since(signalled); took > 10*time.Second {
		t.Errorf("the run took %v to end after SIGTERM", took)
	}
	wantInterrupted(t, lines, err)
	if b, err := os.ReadFile(lock); err != nil || string(b) != held {
		t.Errorf("the other holder's lock is gone or changed: %q, %v", b, err)
	}
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if e.Name() != ".o.lock" {
			t.Errorf("left behind in the output's folder: %s", e.Name())
		}
	}
}
