package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Dir is a temporary directory that becomes the directory at Name() on
// Commit. Callers write whatever files they like under Path(); one goroutine
// owns it, while Abort (through AbortAll) may come from another.
type Dir struct {
	tmp   string
	final string

	mu    sync.Mutex
	state state
}

// CreateDir makes a temporary directory in the folder of path, to be moved to
// path by Commit. The folder must exist. Nothing under path changes until
// Commit.
func CreateDir(path string, opts ...Option) (*Dir, error) {
	cfg := newConfig(opts)
	path = filepath.Clean(path)
	parent, base := filepath.Split(path)
	if base == "" || base == "." || base == ".." || base == string(filepath.Separator) {
		return nil, fmt.Errorf("atomicfile: %q names no directory", path)
	}
	if parent == "" {
		parent = "."
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("atomicfile: %w", err)
	}
	if err := os.Chmod(tmp, cfg.dirPerm); err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("atomicfile: %w", err)
	}
	d := &Dir{tmp: tmp, final: path}
	register(d)
	return d, nil
}

// Name returns the final path, the one Commit creates.
func (d *Dir) Name() string { return d.final }

// Path returns the temporary directory to write into.
func (d *Dir) Path() string { return d.tmp }

// Commit syncs every file and directory under Path() and moves Path() to
// Name(). An existing directory at Name() is replaced: it is renamed aside,
// the new one renamed in, then the old one removed; if the second rename
// fails the old one is put back. An existing non-directory at Name() is an
// error. On failure the temporary is removed. Committing twice is a no-op;
// committing after Abort returns ErrAborted.
func (d *Dir) Commit() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch d.state {
	case committed:
		return nil
	case aborted:
		return fmt.Errorf("%w: %s", ErrAborted, d.final)
	}
	err := d.commitLocked()
	if err != nil {
		os.RemoveAll(d.tmp)
		d.state = aborted
	} else {
		d.state = committed
	}
	unregister(d)
	return err
}

func (d *Dir) commitLocked() error {
	if err := syncTree(d.tmp); err != nil {
		return err
	}
	parent := filepath.Dir(d.final)
	info, err := os.Lstat(d.final)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Rename(d.tmp, d.final); err != nil {
			return fmt.Errorf("atomicfile: %w", err)
		}
		return syncDir(parent)
	case err != nil:
		return fmt.Errorf("atomicfile: %w", err)
	case !info.IsDir():
		return fmt.Errorf("atomicfile: %s exists and is not a directory", d.final)
	}

	// A fresh directory beside the output reserves a unique name; the old
	// output moves inside it, so it never collides with anything.
	aside, err := os.MkdirTemp(parent, "."+filepath.Base(d.final)+".old-*")
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	old := filepath.Join(aside, filepath.Base(d.final))
	if err := os.Rename(d.final, old); err != nil {
		os.Remove(aside)
		return fmt.Errorf("atomicfile: move old %s aside: %w", d.final, err)
	}
	if err := os.Rename(d.tmp, d.final); err != nil {
		if rerr := os.Rename(old, d.final); rerr != nil {
			return fmt.Errorf("atomicfile: %w (and the old directory stays at %s: %v)", err, old, rerr)
		}
		os.Remove(aside)
		return fmt.Errorf("atomicfile: %w", err)
	}
	if err := syncDir(parent); err != nil {
		return err
	}
	if err := os.RemoveAll(aside); err != nil {
		return fmt.Errorf("atomicfile: remove old %s: %w", aside, err)
	}
	return nil
}

// syncTree syncs every regular file and directory under root, directories
// after their contents.
func syncTree(root string) error {
	var files, dirs []string
	err := filepath.WalkDir(root, func(path string, entry fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case entry.IsDir():
			dirs = append(dirs, path)
		case entry.Type().IsRegular():
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	for _, path := range files {
		if err := syncFile(path); err != nil {
			return err
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := syncDir(dirs[i]); err != nil {
			return err
		}
	}
	return nil
}

// Abort removes the temporary directory and everything in it. It is a no-op
// after Commit or a previous Abort, so it suits a defer.
func (d *Dir) Abort() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.state != open {
		return nil
	}
	d.state = aborted
	unregister(d)
	if err := os.RemoveAll(d.tmp); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	return nil
}
