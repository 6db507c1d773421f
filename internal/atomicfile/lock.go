package atomicfile

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// LockPoll is how often Lock looks again at a lock that another process
// holds.
const LockPoll = 100 * time.Millisecond

// LockStaleAge is how long a lock file may go unmodified before Lock
// breaks it, whatever host wrote it: its holder touches it every
// LockRefresh while it holds it, so a lock this old belongs to a process
// that is gone (SIGKILL, a lost node, a Kubernetes pod retried under a new
// host name) or stalled for minutes. The margin over LockRefresh absorbs
// clock skew between the hosts of a shared file system.
const LockStaleAge = 5 * time.Minute

// LockRefresh is how often a holder touches its lock file.
const LockRefresh = 30 * time.Second

// lockRefresh is LockRefresh, shortened by tests.
var lockRefresh = LockRefresh

// lockWriteGrace is how long an empty or unreadable lock file is taken
// for one whose holder is still writing its line (between the exclusive
// create and the write) before it is broken.
const lockWriteGrace = 2 * time.Second

// ErrLockTimeout is wrapped by Lock's error when the lock stayed held by a
// live process for the whole wait.
var ErrLockTimeout = errors.New("atomicfile: lock still held")

// Lock takes the lock file path, waiting up to wait for its holder, or
// until ctx ends (the error then wraps ctx.Err()). The file is created
// exclusively and holds the owner's pid, host, boot id and process start
// time, and the owner touches it every LockRefresh until release, so that
// a lock whose owner is gone is broken, with a warning on log, instead of
// waited for:
//
//   - one of this host whose process no longer runs, or whose pid now
//     names another process (a reused pid: a later start time, or another
//     boot);
//   - one left empty or unreadable (a holder killed before it wrote its
//     line, or a file made by hand) for more than a couple of seconds;
//   - one of any host that was not touched for LockStaleAge.
//
// Otherwise a lock of another host is waited for, since this host cannot
// tell whether its owner runs; the error after the wait names it. The
// returned release stops the touching and removes the file if it is still
// this owner's; it returns an error if another process broke the lock
// meanwhile. log may be nil.
func Lock(ctx context.Context, path string, wait time.Duration, log *slog.Logger) (release func() error, err error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	deadline := time.Now().Add(wait)
	waiting := false
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("atomicfile: waiting for the lock %s: %w", path, err)
		}
		release, err := createLock(path)
		if err == nil {
			return release, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // released meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("atomicfile: %w", err)
		}
		content, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("atomicfile: %w", err)
		}
		o, known := parseLock(content)
		if why := lockStale(o, known, time.Since(info.ModTime())); why != "" {
			broken, err := breakLock(path, info, content)
			if err != nil {
				return nil, fmt.Errorf("atomicfile: breaking the lock %s (%s): %w", path, why, err)
			}
			if broken {
				log.Warn("broke a stale lock", "path", path, "holder", o.String(known), "why", why)
			}
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: %s by %s after %v (broken once not refreshed for %v, or remove it if that process is gone)",
				ErrLockTimeout, path, o.String(known), wait, LockStaleAge)
		}
		if !waiting {
			// A run that seems to hang says what it waits for.
			log.Info("waiting for a lock", "path", path, "holder", o.String(known), "max_wait", wait)
			waiting = true
		}
		t := time.NewTimer(LockPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("atomicfile: waiting for the lock %s held by %s: %w", path, o.String(known), ctx.Err())
		case <-t.C:
		}
	}
}

// createLock creates the lock file exclusively, writes this process's
// line into it and starts touching it; an fs.ErrExist error while another
// process holds it.
func createLock(path string) (release func() error, err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		return nil, fmt.Errorf("atomicfile: %w", err)
	}
	self := lockHolder{pid: os.Getpid(), host: hostTag(), boot: bootID(), nonce: lockNonce()}
	self.start, _ = processStart(self.pid)
	line := self.line()
	_, werr := f.WriteString(line)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("atomicfile: writing the lock %s: %w", path, err)
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	go refreshLock(path, line, stop, stopped)
	var once sync.Once
	var rerr error
	return func() error {
		once.Do(func() {
			close(stop)
			<-stopped
			if !holds(path, line) {
				rerr = fmt.Errorf("atomicfile: the lock %s was broken by another process while this one held it", path)
				return
			}
			rerr = os.Remove(path)
		})
		return rerr
	}, nil
}

// refreshLock touches the lock file every lockRefresh until stop is
// closed, so that waiters tell a live holder from a gone one by the file's
// age alone, whatever host they run on. It stops early once the file no
// longer holds line (broken by another process).
func refreshLock(path, line string, stop <-chan struct{}, stopped chan<- struct{}) {
	defer close(stopped)
	tick := time.NewTicker(lockRefresh)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		if !holds(path, line) {
			return
		}
		t := time.Now()
		os.Chtimes(path, t, t)
	}
}

// holds reports whether the lock file path still holds line: the nonce in
// it tells this holder's file from one made after it was broken, even
// where the new file got the old one's inode.
func holds(path, line string) bool {
	b, err := os.ReadFile(path)
	return err == nil && string(b) == line
}

// lockStale says why a lock file of age, naming holder o (known: its line
// could be read), belongs to no running process, or "" while its holder
// may run.
func lockStale(o lockHolder, known bool, age time.Duration) string {
	switch {
	case !known && age > lockWriteGrace:
		return "the lock file is empty or unreadable"
	case !known:
		return "" // its holder may be writing its line now
	case age > LockStaleAge:
		return fmt.Sprintf("not refreshed for %v (more than %v)", age.Round(time.Second), LockStaleAge)
	case o.host != hostTag():
		return ""
	case o.boot != "" && bootID() != "" && o.boot != bootID():
		return "written before this host restarted"
	case processGone(o.pid):
		return "its process is gone"
	}
	if o.start != "" {
		if start, ok := processStart(o.pid); ok && start != o.start {
			return fmt.Sprintf("pid %d now names another process", o.pid)
		}
	}
	return ""
}

// breakLock removes the stale lock file judged from info and content and
// reports whether it did: a file that another waiter broke and replaced
// with its own lock since is left alone. (Two waiters may still both judge the same file in the instant
// between this check and the removal; the commit that the lock guards
// checks again what it replaces.)
func breakLock(path string, info fs.FileInfo, content []byte) (bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	now, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !bytes.Equal(b, content) || !os.SameFile(now, info) || !now.ModTime().Equal(info.ModTime()) {
		return false, nil
	}
	if err := os.Remove(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// lockHolder is what a lock file says of its holder: "pid host boot
// start nonce", where boot and start are "-" when unknown. Files of
// earlier versions hold "pid host" alone.
type lockHolder struct {
	pid   int
	host  string
	boot  string // the kernel's boot id, "" when unknown
	start string // the process's start time in ticks since boot, "" when unknown
	nonce string // random: tells this take of the lock from any other
}

// line is the holder as a lock file holds it.
func (o lockHolder) line() string {
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	return fmt.Sprintf("%d %s %s %s %s\n", o.pid, o.host, dash(o.boot), dash(o.start), dash(o.nonce))
}

// String names the holder in messages.
func (o lockHolder) String(known bool) string {
	if !known {
		return "an unknown process (empty or unreadable lock file)"
	}
	return fmt.Sprintf("process %d on %s", o.pid, o.host)
}

// parseLock reads the holder a lock file's content b names; false when
// it is empty (perhaps still being written) or unreadable.
func parseLock(b []byte) (lockHolder, bool) {
	fields := strings.Fields(string(b))
	if len(fields) != 2 && len(fields) != 5 {
		return lockHolder{}, false
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil || n <= 0 {
		return lockHolder{}, false
	}
	o := lockHolder{pid: n, host: fields[1]}
	if len(fields) == 5 {
		undash := func(s string) string {
			if s == "-" {
				return ""
			}
			return s
		}
		o.boot, o.start, o.nonce = undash(fields[2]), undash(fields[3]), undash(fields[4])
	}
	return o, true
}

// lockNonce returns a random word for a lock file's line.
func lockNonce() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
