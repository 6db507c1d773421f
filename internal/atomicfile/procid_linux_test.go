package atomicfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestStatFields reads the state and start time of a /proc/<pid>/stat
// line whose command name holds spaces and parentheses.
func TestStatFields(t *testing.T) {
	line := "4242 (a (weird) name) Z 1 4242 4242 0 -1 4194560 85 0 0 0 0 0 0 0 20 0 1 0 123456 0 0"
	fields, ok := statFields(line)
	if !ok || fields[stateField] != "Z" || fields[startField] != "123456" {
		t.Fatalf("fields %q (%v): want state Z and start 123456", fields, ok)
	}
	if _, ok := statFields("4242 (cut"); ok {
		t.Fatal("a line without the end of its name parsed")
	}
}

// TestZombieWriterIsGone checks that a temporary whose writer has exited
// but waits to be reaped (a zombie, which still answers kill(pid, 0)) is
// removed as stale, and that a pid born after a temporary was written is
// not taken for its writer, while one born before is.
func TestZombieWriterIsGone(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skip("cannot start a child process:", err)
	}
	pid := cmd.Process.Pid
	defer cmd.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for !processDead(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("pid %d did not become a zombie", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !processGone(pid) {
		t.Fatalf("zombie %d taken for a running process", pid)
	}
	dir := t.TempDir()
	final := filepath.Join(dir, "out")
	stale := filepath.Join(dir, fmt.Sprintf(".out.%s-%d-%s-123", kindTemp, pid, hostTag()))
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	removed, err := RemoveStale(final)
	if err != nil || len(removed) != 1 || removed[0] != stale {
		t.Fatalf("removed %v (%v), want %s", removed, err, stale)
	}

	if processStartedAfter(os.Getpid(), time.Now()) {
		t.Error("this process taken for one born after now")
	}
	if !processStartedAfter(os.Getpid(), time.Unix(0, 0)) {
		t.Error("this process not taken for one born after 1970")
	}
}
