package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// state is where a temporary is in its life: open, then committed or
// aborted, never both.
type state int

const (
	open state = iota
	committed
	aborted
)

// ErrAborted is returned by Commit after Abort or AbortAll.
var ErrAborted = errors.New("atomicfile: aborted")

// File is a temporary file that becomes the file at Name() on Commit. One
// goroutine writes it; Abort (through AbortAll) may come from another.
type File struct {
	f     *os.File
	final string
	// inDir is true for a file inside an open Dir, whose Commit syncs it.
	inDir bool

	mu    sync.Mutex
	state state
}

// Create opens a temporary file in the folder of path, to be renamed to path
// by Commit. The folder must exist. Nothing appears under path until Commit.
func Create(path string, opts ...Option) (*File, error) {
	cfg := newConfig(opts)
	dir, base := filepath.Split(path)
	if base == "" {
		return nil, fmt.Errorf("atomicfile: %q names no file", path)
	}
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, tempPattern(base, kindTemp))
	if err != nil {
		return nil, fmt.Errorf("atomicfile: %w", err)
	}
	if err := f.Chmod(cfg.filePerm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("atomicfile: %w", err)
	}
	af := &File{f: f, final: path, inDir: dirOf(path) != nil}
	register(af)
	return af, nil
}

// Name returns the final path, the one Commit creates.
func (f *File) Name() string { return f.final }

// TempName returns the path of the temporary.
func (f *File) TempName() string { return f.f.Name() }

// Write writes to the temporary. After Abort it fails.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	if err != nil {
		return n, fmt.Errorf("atomicfile: %w", err)
	}
	return n, nil
}

// Commit syncs and closes the temporary and renames it to Name(), replacing
// any file there. Inside an open Dir it leaves the syncing to the Dir's
// Commit, so every file is synced once. On failure the temporary is removed and nothing under
// Name() changes. Committing twice is a no-op; committing after Abort
// returns ErrAborted.
func (f *File) Commit() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch f.state {
	case committed:
		return nil
	case aborted:
		return fmt.Errorf("%w: %s", ErrAborted, f.final)
	}
	err := f.commitLocked()
	if err != nil {
		os.Remove(f.f.Name())
		f.state = aborted
	} else {
		f.state = committed
	}
	unregister(f)
	return err
}

func (f *File) commitLocked() error {
	if !f.inDir {
		if err := f.f.Sync(); err != nil {
			f.f.Close()
			return fmt.Errorf("atomicfile: sync %s: %w", f.f.Name(), err)
		}
	}
	if err := f.f.Close(); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	if err := os.Rename(f.f.Name(), f.final); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	if f.inDir {
		return nil
	}
	return syncDir(filepath.Dir(f.final))
}

// Abort closes and removes the temporary. It is a no-op after Commit or a
// previous Abort, so it suits a defer.
func (f *File) Abort() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.state != open {
		return nil
	}
	f.state = aborted
	unregister(f)
	f.f.Close() // the file is being thrown away; a close error changes nothing
	if err := os.Remove(f.f.Name()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("atomicfile: %w", err)
	}
	return nil
}
