package atomicfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestLockSerialisesHolders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	release, err := Lock(context.Background(), path, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	var released atomic.Bool
	done := make(chan error)
	go func() {
		r, err := Lock(context.Background(), path, 5*time.Second, nil)
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

// thisProcess is the line this process writes into a lock file.
func thisProcess(t *testing.T) lockHolder {
	self := lockHolder{pid: os.Getpid(), host: hostTag(), boot: bootID()}
	self.start, _ = processStart(self.pid)
	return self
}

// writeLock writes a lock file holding content, last modified age ago.
func writeLock(t *testing.T, content string, age time.Duration) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.lock")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-age)
	if err := os.Chtimes(path, then, then); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLockWaitsForALiveOrForeignHolder(t *testing.T) {
	for name, content := range map[string]string{
		"live":               thisProcess(t).line(),
		"live, earlier form": fmt.Sprintf("%d %s\n", os.Getpid(), hostTag()),
		"foreign":            "1 another-host - - x\n",
		"foreign, recent":    "1 another-host\n",
	} {
		t.Run(name, func(t *testing.T) {
			path := writeLock(t, content, time.Minute)
			_, err := Lock(context.Background(), path, 2*LockPoll, nil)
			if !errors.Is(err, ErrLockTimeout) {
				t.Fatalf("err = %v, want ErrLockTimeout", err)
			}
		})
	}
}

func TestLockBreaksStaleLocks(t *testing.T) {
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	self := thisProcess(t)
	reused, rebooted := self, self
	reused.start = "1" // this pid, but not this process's start
	rebooted.boot = "another-boot"
	cases := map[string]struct {
		content string
		age     time.Duration
		why     string
	}{
		"gone process":             {fmt.Sprintf("%d %s\n", gone.Process.Pid, hostTag()), 0, "its process is gone"},
		"empty":                    {"", time.Minute, "empty or unreadable"},
		"unreadable":               {"not a lock\n", time.Minute, "empty or unreadable"},
		"reused pid":               {reused.line(), 0, "now names another process"},
		"another boot":             {rebooted.line(), 0, "before this host restarted"},
		"foreign, not refreshed":   {"1 another-host - - x\n", LockStaleAge + time.Minute, "not refreshed"},
		"this host, not refreshed": {self.line(), LockStaleAge + time.Minute, "not refreshed"},
	}
	if self.start == "" {
		delete(cases, "reused pid")
	}
	if self.boot == "" {
		delete(cases, "another boot")
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			path := writeLock(t, c.content, c.age)
			var logged bytes.Buffer
			release, err := Lock(context.Background(), path, 0, slog.New(slog.NewTextHandler(&logged, nil)))
			if err != nil {
				t.Fatalf("a stale lock was not broken: %v", err)
			}
			if err := release(); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(logged.String(), "broke a stale lock") || !strings.Contains(logged.String(), c.why) {
				t.Errorf("log = %q, want the broken lock and %q", logged.String(), c.why)
			}
		})
	}
}

// An empty lock file may be one whose holder has created it and not yet
// written its line: it is waited for a moment before it is broken.
func TestLockWaitsForAFreshEmptyLock(t *testing.T) {
	path := writeLock(t, "", 0)
	if _, err := Lock(context.Background(), path, LockPoll, nil); !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("err = %v, want ErrLockTimeout", err)
	}
}

func TestLockWaitEndsWithTheContext(t *testing.T) {
	path := writeLock(t, "1 another-host - - x\n", 0)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(3*LockPoll, cancel)
	began := time.Now()
	_, err := Lock(ctx, path, time.Hour, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if waited := time.Since(began); waited > 3*LockPoll+time.Second {
		t.Errorf("the wait went on %v after the context ended", waited-3*LockPoll)
	}
}

func TestLockIsRefreshedWhileHeld(t *testing.T) {
	defer func(d time.Duration) { lockRefresh = d }(lockRefresh)
	lockRefresh = 10 * time.Millisecond
	path := filepath.Join(t.TempDir(), "x.lock")
	release, err := Lock(context.Background(), path, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * lockRefresh)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if age := time.Since(info.ModTime()); age > time.Minute {
		t.Errorf("the held lock was last touched %v ago", age)
	}
}

func TestLockReleaseLeavesAnotherHoldersLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	release, err := Lock(context.Background(), path, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Another process broke this one's lock and took it.
	os.Remove(path)
	if err := os.WriteFile(path, []byte("1 another-host - - x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := release(); err == nil {
		t.Error("release reported no broken lock")
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "1 another-host - - x\n" {
		t.Errorf("the other holder's lock is gone or changed: %q, %v", b, err)
	}
}
