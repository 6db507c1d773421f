package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"
)

// LockPoll is how often Lock looks again at a lock that another process
// holds.
const LockPoll = 100 * time.Millisecond

// ErrLockTimeout is wrapped by Lock's error when the lock stayed held by a
// live process for the whole wait.
var ErrLockTimeout = errors.New("atomicfile: lock still held")

// Lock takes the lock file path, waiting up to wait for its holder: the
// file is created exclusively and holds the owner's pid and host, so that
// a lock left by a process that is gone from this host (SIGKILL, a node
// lost and back) is broken instead of waited for. Another host's lock is
// waited for, since this host cannot tell whether its owner runs; the
// error after the wait names it. The returned release removes the file.
func Lock(path string, wait time.Duration) (release func() error, err error) {
	deadline := time.Now().Add(wait)
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d %s\n", os.Getpid(), hostTag())
			if err := errors.Join(werr, f.Close()); err != nil {
				os.Remove(path)
				return nil, fmt.Errorf("atomicfile: writing the lock %s: %w", path, err)
			}
			return func() error { return os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("atomicfile: %w", err)
		}
		o, known := lockOwner(path)
		if known && o.host == hostTag() && processGone(o.pid) {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("atomicfile: breaking the lock of gone process %d: %w", o.pid, err)
			}
			continue
		}
		if time.Now().After(deadline) {
			holder := "an unknown process"
			if known {
				holder = fmt.Sprintf("process %d on %s", o.pid, o.host)
			}
			return nil, fmt.Errorf("%w: %s by %s after %v (remove it if that process is gone)", ErrLockTimeout, path, holder, wait)
		}
		time.Sleep(LockPoll)
	}
}

// lockOwner reads the pid and host a lock file names; false while the
// file is gone or still being written.
func lockOwner(path string) (owner, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return owner{}, false
	}
	pid, host, ok := strings.Cut(strings.TrimSpace(string(b)), " ")
	n, err := strconv.Atoi(pid)
	if !ok || err != nil || n <= 0 {
		return owner{}, false
	}
	return owner{pid: n, host: host}, true
}
