package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

func TestLockSerialisesHolders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	release, err := Lock(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var released atomic.Bool
	done := make(chan error)
	go func() {
		r, err := Lock(path, 5*time.Second)
		if err == nil && !released.Load() {
			err = errors.New("took the lock while it was held")
		}
		if err == nil {
			err = r()
		}
		done <- err
	}()
	time.Sleep(3 * LockPoll)
	released.Store(true)
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the lock file is still there: %v", err)
	}
}

func TestLockBreaksTheLockOfAGoneProcess(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	path := filepath.Join(t.TempDir(), "x.lock")
	if err := os.WriteFile(path, fmt.Appendf(nil, "%d %s\n", cmd.Process.Pid, hostTag()), 0o644); err != nil {
		t.Fatal(err)
	}
	release, err := Lock(path, 0)
	if err != nil {
		t.Fatalf("a gone process's lock was not broken: %v", err)
	}
	release()
}

func TestLockWaitsForALiveOrForeignHolder(t *testing.T) {
	for name, content := range map[string]string{
		"live":    fmt.Sprintf("%d %s\n", os.Getpid(), hostTag()),
		"foreign": fmt.Sprintf("%d another-host\n", 1),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.lock")
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Lock(path, 2*LockPoll)
			if !errors.Is(err, ErrLockTimeout) {
				t.Fatalf("err = %v, want ErrLockTimeout", err)
			}
		})
	}
}
