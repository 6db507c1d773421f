package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/memlimit"
)

// The supervisor's child is this test binary: TestMain runs it as the
// command crashStage names (testChildStage) when Supervise started it.
const (
	testChildStage = "CLI_TEST_CHILD_STAGE"
	testChildOut   = "CLI_TEST_CHILD_OUT"
)

func TestMain(m *testing.M) {
	if childMarker(os.Environ()) >= 0 {
		os.Exit(Main(crashing(os.Getenv(testChildStage), os.Getenv(testChildOut))))
	}
	os.Exit(m.Run())
}

// sink keeps allocations alive.
var sink [][]byte

// crashing is a command whose stage opens a temporary folder for out and
// then fails as stage says: "sigkill" sends itself SIGKILL, "oom" allocates under a 2 GiB address-space
// limit until the runtime gives up, "panic" panics, "wait" returns once a
// signal cancels it, "hang" never returns, "ok" commits.
func crashing(stage, out string) Command {
	return Command{Name: "compute", Stage: func(ctx context.Context, _ *config.Loaded, _ Streams) error {
		d, err := atomicfile.CreateDir(out)
		if err != nil {
			return err
		}
		defer d.Abort()
		switch stage {
		case "oom":
			limit := syscall.Rlimit{Cur: 2 << 30, Max: 2 << 30}
			if err := syscall.Setrlimit(syscall.RLIMIT_AS, &limit); err != nil {
				return err
			}
			for {
				b := make([]byte, 256<<20)
				for i := 0; i < len(b); i += 4096 {
					b[i] = 1
				}
				sink = append(sink, b)
			}
		case "panic":
			panic("a bug")
		case "sigkill": // as kill -KILL from a person or a script
			return syscall.Kill(os.Getpid(), syscall.SIGKILL)
		case "wait":
			<-ctx.Done()
			return ctx.Err()
		case "hang": // a clean-up that never ends
			time.Sleep(time.Hour)
		case "ok":
			return d.Commit()
		}
		return errors.New("unknown stage " + stage)
	}}
}

// superviseChild runs Supervise on the crashing command and returns its
// code and stderr. stderr is a file, as Supervise's child writes it
// directly.
func superviseChild(t *testing.T, stage, out string) (int, string) {
	t.Helper()
	t.Setenv(testChildStage, stage)
	t.Setenv(testChildOut, out)
	errFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	code := Supervise(crashing(stage, out), nil, os.Environ(), os.Stdout, errFile)
	b, err := os.ReadFile(errFile.Name())
	if err != nil {
		t.Fatal(err)
	}
	return code, string(b)
}

// lastLine is the last line of text.
func lastLine(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return lines[len(lines)-1]
}

// leftBeside lists what is in out's folder besides out itself.
func leftBeside(t *testing.T, out string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(out))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != filepath.Base(out) {
			names = append(names, e.Name())
		}
	}
	return names
}

func TestSuperviseOutOfMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("supervision runs on Linux")
	}
	out := filepath.Join(t.TempDir(), "out")
	code, stderr := superviseChild(t, "oom", out)
	if code != ExitOutOfMemory {
		t.Errorf("exit %d, want %d; stderr:\n%.2000s", code, ExitOutOfMemory, stderr)
	}
	if !strings.Contains(stderr, "fatal error: out of memory") {
		t.Errorf("stderr lacks the runtime's report:\n%.2000s", stderr)
	}
	if got, want := lastLine(stderr), "compute: error: out of memory: "; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "temporaries removed (exit 9)") {
		t.Errorf("last line %q, want %q...temporaries removed (exit 9)", got, want)
	}
	if left := leftBeside(t, out); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestSupervisePanicIsInternal(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("supervision runs on Linux")
	}
	out := filepath.Join(t.TempDir(), "out")
	code, stderr := superviseChild(t, "panic", out)
	if code != ExitInternal {
		t.Errorf("exit %d, want %d (not 2, a configuration error)", code, ExitInternal)
	}
	if got, want := lastLine(stderr), "compute: error: internal error: the run crashed: panic: a bug"; !strings.HasPrefix(got, want) {
		t.Errorf("last line %q, want it to start %q", got, want)
	}
	if left := leftBeside(t, out); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestSupervisePassesTheChildsCode(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("supervision runs on Linux")
	}
	out := filepath.Join(t.TempDir(), "out")
	if code, stderr := superviseChild(t, "ok", out); code != ExitOK || stderr != "" {
		t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the child's commit: %v", err)
	}
	if code, stderr := superviseChild(t, "nonsense", out+"2"); code != ExitInternal || !strings.Contains(stderr, "unknown stage") {
		t.Errorf("exit %d, stderr %q; want the child's own error, exit 1", code, stderr)
	}
}

// TestSuperviseForwardsSignals sends SIGTERM to the supervisor alone, as
// kill(1) does: the child stops and cleans up, and its code comes through.
// A second signal stops the child at once, and the supervisor removes its
// temporaries.
func TestSuperviseForwardsSignals(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("supervision runs on Linux")
	}
	for signals, stage := range map[int]string{1: "wait", 2: "hang"} {
		t.Run(fmt.Sprint(signals), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			// The supervisor runs in a process of its own, so that the
			// signal is not this test's.
			cmd := exec.Command(exe, "-test.run=^TestSupervisorProcess$")
			cmd.Env = append(os.Environ(), "CLI_TEST_SUPERVISOR=1", testChildStage+"="+stage, testChildOut+"="+out)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool { return len(leftBeside(t, out)) > 0 })
			time.Sleep(100 * time.Millisecond) // inside the stage
			for range signals {
				if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
				time.Sleep(50 * time.Millisecond)
			}
			err = cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != ExitInterrupted {
				t.Fatalf("supervisor: %v, want exit %d; stderr:\n%s", err, ExitInterrupted, stderr.String())
			}
			want := "compute: error: interrupted by SIGTERM; temporaries removed (exit 130)"
			if signals == 2 {
				want = "compute: error: interrupted by a second SIGTERM and stopped at once; temporaries removed (exit 130)"
			}
			if got := lastLine(stderr.String()); got != want {
				t.Errorf("last line %q, want %q", got, want)
			}
			if left := leftBeside(t, out); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// TestSupervisorProcess is the supervisor of TestSuperviseForwardsSignals,
// run in a process of its own.
func TestSupervisorProcess(t *testing.T) {
	if os.Getenv("CLI_TEST_SUPERVISOR") == "" {
		t.Skip("run by TestSuperviseForwardsSignals")
	}
	os.Exit(Supervise(crashing(os.Getenv(testChildStage), os.Getenv(testChildOut)), nil, os.Environ(), os.Stdout, os.Stderr))
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

func TestOutOfMemoryReports(t *testing.T) {
	for report, want := range map[string]bool{
		"\nruntime stack:\nruntime.throw({0x4af64f?, 0x2a39?})\n\t/usr/local/go/src/runtime/panic.go:1229 +0x48\nruntime.sysMapOS(0x28e63f800000, 0x10000000000, {0x4ac4b0, 0x4})\n": true,
		"goroutine 1 [running]:\nruntime.throw({0x1991c76?, 0x201?})\n\t/usr/local/go/src/runtime/panic.go:1229\nruntime.(*mcache).allocLarge(0x426aea?, 0x400040, 0x1)\n":           true,
		"goroutine 1 [running]:\nruntime.throw({0x1991c76?, 0x201?})\n\tpanic.go:1229\nruntime.mapassign_faststr(...)\n":                                                             false,
		"panic: a bug\n\ngoroutine 1 [running]:\nmain.main()\n": false,
		"": false,
	} {
		if got := outOfMemory(report); got != want {
			t.Errorf("outOfMemory(%q) = %v, want %v", report, got, want)
		}
	}
}

// TestSuperviseSIGKILLIsNotOutOfMemory: a child killed by SIGKILL while
// the kernel's out-of-memory kill count stays the same was killed by
// someone, not for memory: exit 137 and a line that says so, temporaries
// removed all the same.
func TestSuperviseSIGKILLIsNotOutOfMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("supervision runs on Linux")
	}
	if _, ok := memlimit.OOMKills(); !ok {
		t.Skip("the kernel keeps no out-of-memory kill count here")
	}
	out := filepath.Join(t.TempDir(), "out")
	code, stderr := superviseChild(t, "sigkill", out)
	if code != 128+int(syscall.SIGKILL) {
		t.Errorf("exit %d, want %d; stderr:\n%.2000s", code, 128+int(syscall.SIGKILL), stderr)
	}
	if got, want := lastLine(stderr), "compute: error: the run was killed by SIGKILL; temporaries removed (exit 137)"; got != want {
		t.Errorf("last line %q, want %q", got, want)
	}
	if left := leftBeside(t, out); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}
