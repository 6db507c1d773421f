package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/memlimit"
	"github.com/pathflow/pathflow/pipeline/runlog"
)

// childEnv marks the command a supervisor started. It is taken out of the
// environment before the configuration is read, so it draws no "matches no
// key" warning and is no configuration.
const childEnv = "PATHFLOW_SUPERVISED_CHILD"

// The child's extra files: the supervisor reads Go's crash report (panics
// and fatal errors, which the child also prints on stderr) from one and
// the final paths of the child's temporaries from the other.
const (
	crashFD = 3
	tempsFD = 4
)

// crashKeep is how much of a crash report the supervisor keeps: the
// headline ("fatal error: out of memory", "panic: ...") comes first.
const crashKeep = 64 << 10

// supervisedChild is set in a command started by Main as a supervisor's
// child: the first SIGINT or SIGTERM cancels the stage and later ones are
// left to the supervisor, which receives them too (a terminal's Ctrl-C
// and a scheduler's signal reach every process of the job).
var supervisedChild bool

// Main runs cmd as a program's main function with the process's own
// arguments, environment and streams, and returns the exit code.
//
// Where it can (Linux), it runs the command as a child process of the
// same binary and supervises it, since some failures end a Go program
// before any of its own code runs: an allocation that fails under
// ulimit -v ends in the runtime's "fatal error: out of memory" (exit 2,
// the code of a configuration error), the kernel's out-of-memory killer
// sends SIGKILL, and a panic exits 2 as well. The supervisor then prints
// the usual "NAME: error: ... (exit N)" line, removes the temporaries the
// child announced (see atomicfile.AnnounceTo) and exits with
// ExitOutOfMemory, or ExitInternal for a crash. A child
// that ends on its own passes its exit code through. SIGINT and SIGTERM
// are forwarded; a second one kills the child, as it would end an
// unsupervised run, and its temporaries are removed all the same.
func Main(cmd Command) int {
	env := os.Environ()
	if i := childMarker(env); i >= 0 {
		env = append(env[:i:i], env[i+1:]...)
		supervisedChild = true
		reportCrashes()
		return Run(cmd, os.Args[1:], env, os.Stdout, os.Stderr)
	}
	return Supervise(cmd, os.Args[1:], env, os.Stdout, os.Stderr)
}

// childMarker returns the index of childEnv in env, or -1.
func childMarker(env []string) int {
	for i, kv := range env {
		if strings.HasPrefix(kv, childEnv+"=") {
			return i
		}
	}
	return -1
}

// reportCrashes sends Go's crash reports and the temporaries' paths to the
// supervisor's pipes, when they are pipes: a marker set by hand leaves
// whatever files 3 and 4 are alone.
func reportCrashes() {
	if f := inheritedPipe(crashFD, "crash report"); f != nil {
		_ = debug.SetCrashOutput(f, debug.CrashOptions{})
		f.Close() // SetCrashOutput keeps a copy
	}
	if f := inheritedPipe(tempsFD, "temporaries"); f != nil {
		atomicfile.AnnounceTo(f)
	}
}

func inheritedPipe(fd uintptr, name string) *os.File {
	f := os.NewFile(fd, name)
	if f == nil {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return nil
	}
	closeOnExec(int(fd))
	return f
}

// Supervise runs cmd in a child process of this same executable with args
// and env and supervises it as Main describes. stdout and stderr should
// be files (the child writes them directly); where no child can be
// started it runs the command in this process.
func Supervise(cmd Command, args, env []string, stdout, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil || !canSupervise {
		return Run(cmd, args, env, stdout, stderr)
	}
	// The supervisor's own lines follow log.format as far as the arguments
	// and environment tell it; the child reads the whole configuration.
	format := config.Peek(cmd.Keys, config.Source{Args: args, Env: env}, runlog.KeyLogFormat)
	s := &supervisor{msgs: newMessages(stderr, cmd.Name, format)}
	code, err := s.run(exe, args, env, stdout)
	if err != nil {
		// Nothing ran: run here, unsupervised.
		return Run(cmd, args, env, stdout, stderr)
	}
	return code
}

// supervisor is one run of a child.
type supervisor struct {
	msgs messages // the supervisor's warnings and error line

	crash bytes.Buffer // the first crashKeep bytes of the crash report
	temps []string     // final paths of the child's temporaries
	// oomKills is the kernel's count of out-of-memory kills when the
	// child started (memlimit.OOMKills), oomCounted whether it has one.
	oomKills   int64
	oomCounted bool
}

// run starts the child and waits for it. err is set only when the child
// could not be started.
func (s *supervisor) run(exe string, args, env []string, stdout io.Writer) (int, error) {
	crashR, crashW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	tempsR, tempsW, err := os.Pipe()
	if err != nil {
		crashR.Close()
		crashW.Close()
		return 0, err
	}
	child := exec.Command(exe, args...)
	child.Env = append(env[:len(env):len(env)], childEnv+"=1")
	child.Stdin, child.Stdout, child.Stderr = os.Stdin, stdout, s.msgs.stderr
	child.ExtraFiles = []*os.File{crashW, tempsW} // fds 3 and 4
	child.SysProcAttr = childAttr()

	// Signals are caught before the child starts, so none is lost.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(signals)

	// The parent-death signal is tied to the thread that starts the
	// child: it stays locked until the child is gone.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s.oomKills, s.oomCounted = memlimit.OOMKills()
	err = child.Start()
	crashW.Close()
	tempsW.Close()
	if err != nil {
		crashR.Close()
		tempsR.Close()
		return 0, err
	}
	var readers sync.WaitGroup
	readers.Add(2)
	go func() {
		defer readers.Done()
		defer crashR.Close()
		_, _ = io.Copy(&s.crash, io.LimitReader(crashR, crashKeep))
		_, _ = io.Copy(io.Discard, crashR) // never block the child's report
	}()
	go func() {
		defer readers.Done()
		defer tempsR.Close()
		b, _ := io.ReadAll(tempsR)
		for _, p := range strings.Split(string(b), "\x00") {
			if p != "" {
				s.temps = append(s.temps, p)
			}
		}
	}()

	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	var first os.Signal
	killed := false
	var waitErr error
wait:
	for {
		select {
		case sig := <-signals:
			if first == nil {
				first = sig
				_ = child.Process.Signal(sig)
				continue
			}
			// A second signal ends the child at once, as it would end an
			// unsupervised run whose clean-up hangs.
			killed = true
			_ = child.Process.Kill()
		case waitErr = <-exited:
			break wait
		}
	}
	readers.Wait()
	return s.outcome(child.ProcessState, waitErr, first, killed), nil
}

// outcome turns how the child ended into the exit code, printing the
// error line and removing temporaries where the child could not.
func (s *supervisor) outcome(st *os.ProcessState, waitErr error, sig os.Signal, killed bool) int {
	if st == nil {
		s.removeTemporaries()
		return s.msgs.fail(fmt.Errorf("waiting for the run: %v", waitErr), ExitInternal)
	}
	crash := s.crash.String()
	ws, _ := st.Sys().(syscall.WaitStatus)
	switch {
	case killed:
		s.removeTemporaries()
		return s.msgs.fail(fmt.Errorf("interrupted by a second %s and stopped at once; temporaries removed", signalName(sig)), ExitInterrupted)
	case outOfMemory(crash):
		s.removeTemporaries()
		return s.msgs.fail(errors.New("out of memory: the run needed more memory than this machine or its limits (ulimit -v, the cgroup) give; temporaries removed"), ExitOutOfMemory)
	case crash != "":
		s.removeTemporaries()
		return s.msgs.fail(fmt.Errorf("internal error: the run crashed: %s (the report is above; please report it); temporaries removed", headline(crash)), ExitInternal)
	case ws.Signaled() && ws.Signal() == syscall.SIGKILL && s.killedForMemory():
		s.removeTemporaries()
		return s.msgs.fail(errors.New("out of memory: the run was killed by SIGKILL from the kernel's out-of-memory killer (the machine or the cgroup ran out); temporaries removed"), ExitOutOfMemory)
	case ws.Signaled():
		s.removeTemporaries()
		return s.msgs.fail(fmt.Errorf("the run was killed by %s; temporaries removed", signalName(ws.Signal())), 128+int(ws.Signal()))
	}
	return st.ExitCode()
}

// killedForMemory reports whether a SIGKILL that ended the child came
// from the kernel's out-of-memory killer: its count of kills grew while
// the child ran. Schedulers kill a job's every process, this one
// included, so a SIGKILL for the child alone is most often that killer's;
// where the kernel keeps no count that is assumed. A SIGKILL from a person
// or a program with the count unchanged is reported as the signal it is.
func (s *supervisor) killedForMemory() bool {
	if !s.oomCounted {
		return true
	}
	now, ok := memlimit.OOMKills()
	return !ok || now > s.oomKills
}

// outOfMemory reports whether a Go crash report is the runtime's failure
// to get memory from the system. The report a crash output receives
// starts after the "fatal error: out of memory" line, which goes to
// stderr alone, so the failure is known by the function that called
// runtime.throw: one of the allocator's, whose throws (bar some for
// corrupted state) all say "out of memory".
func outOfMemory(report string) bool {
	if strings.Contains(report, "fatal error: out of memory") {
		return true
	}
	lines := strings.Split(report, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, "runtime.throw(") {
			continue
		}
		for _, next := range lines[i+1:] {
			if strings.HasPrefix(next, "\t") {
				continue // the file and line of a frame
			}
			// "runtime.sysMapOS(0x..." or "runtime.(*mcache).allocLarge(0x...".
			fn, _, _ := strings.Cut(next, "(0x")
			fn, _, _ = strings.Cut(fn, "(...)")
			return allocatorThrows[strings.TrimSuffix(fn, "()")]
		}
		return false
	}
	return false
}

// allocatorThrows are the runtime functions whose throw, in a crash
// report, means that the system refused memory (Go 1.26's runtime).
var allocatorThrows = map[string]bool{
	"runtime.sysMapOS":                   true,
	"runtime.sysUsedOS":                  true,
	"runtime.(*mcache).allocLarge":       true,
	"runtime.(*mcache).refill":           true,
	"runtime.(*mheap).sysAlloc":          true,
	"runtime.(*pageAlloc).grow":          true,
	"runtime.getempty":                   true,
	"runtime.stackalloc":                 true,
	"runtime.stackpoolalloc":             true,
	"runtime.rawruneslice":               true,
	"runtime.(*userArena).refill":        true,
	"runtime.newUserArenaChunk":          true,
	"runtime.(*mspan).userArenaNextFree": true,
}

// headline is what a crash report says happened: its panic line, or
// that the runtime failed (a throw's own line goes to stderr alone).
func headline(report string) string {
	for _, line := range strings.Split(report, "\n") {
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			return line
		}
	}
	return "a fatal error of the Go runtime"
}

// removeTemporaries removes what the dead child left beside each output
// it announced.
func (s *supervisor) removeTemporaries() {
	for _, p := range s.temps {
		if _, err := atomicfile.RemoveStale(p); err != nil {
			s.msgs.warn("%v", err)
		}
	}
}
