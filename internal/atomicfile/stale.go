package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// RemoveStale removes what earlier attempts to write path left behind
// when their process died without cleaning up (SIGKILL, a node lost): the
// ".<base>.tmp-*" and ".<base>.old-*" entries beside path that were made
// on this host by a process that no longer runs (writerGone). Entries of live processes
// are left alone, and so are those of other hosts (on a shared file system
// this host cannot tell whether their writer still runs). It returns the
// paths it removed.
func RemoveStale(path string) ([]string, error) {
	dir, base := filepath.Split(filepath.Clean(path))
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("atomicfile: %w", err)
	}
	var removed []string
	for _, e := range entries {
		o, ok := parseTemp(e.Name(), base)
		if !ok || o.host != hostTag() || o.pid == os.Getpid() || !writerGone(o.pid, e) {
			continue
		}
		stale := filepath.Join(dir, e.Name())
		if err := os.RemoveAll(stale); err != nil {
			return removed, fmt.Errorf("atomicfile: removing stale %s: %w", stale, err)
		}
		removed = append(removed, stale)
	}
	return removed, nil
}

// writerGone reports whether the process that made the entry e, pid, no
// longer runs: no process has the pid, or it is a zombie, or the pid now
// names a process born after the entry was last written (pids are reused,
// soon where few are available).
func writerGone(pid int, e fs.DirEntry) bool {
	if processGone(pid) {
		return true
	}
	info, err := e.Info()
	return err == nil && processStartedAfter(pid, info.ModTime())
}
