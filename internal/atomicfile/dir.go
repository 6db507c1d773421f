package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/pathflow/pathflow/internal/parallel"
)

// Dir is a temporary directory that becomes the directory at Name() on
// Commit. Callers write files under Path(), through Create (or CreateIn)
// so that no uncommitted file carries its final name; one goroutine owns
// it, while Abort (through AbortAll) may come from another.
type Dir struct {
	tmp      string
	abs      string // tmp as an absolute path, the registry's key
	final    string
	filePerm fs.FileMode

	mu       sync.Mutex
	state    state
	partials map[string]string // file being written -> its final path
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
	tmp, err := os.MkdirTemp(parent, tempPattern(base, kindTemp))
	if err != nil {
		return nil, fmt.Errorf("atomicfile: %w", err)
	}
	abs, err := filepath.Abs(tmp)
	if err == nil {
		err = os.Chmod(tmp, cfg.dirPerm)
	}
	if err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("atomicfile: %w", err)
	}
	d := &Dir{tmp: tmp, abs: abs, final: path, filePerm: cfg.filePerm, partials: map[string]string{}}
	register(d)
	return d, nil
}

// Name returns the final path, the one Commit creates.
func (d *Dir) Name() string { return d.final }

// Path returns the temporary directory to write into.
func (d *Dir) Path() string { return d.tmp }

// Create creates (or truncates) the file path, which must lie under
// Path(), in a folder that exists (as for os.Create). The file is written as path+PartialSuffix and
// takes its own name at Commit, so a reader's glob for the final extension
// never finds a file of an uncommitted output. The caller closes it; Commit
// syncs it (once).
func (d *Dir) Create(path string) (*os.File, error) {
	abs, err := d.inside(path)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.state != open {
		return nil, fmt.Errorf("%w: %s", ErrAborted, d.final)
	}
	f, err := os.OpenFile(abs+PartialSuffix, os.O_RDWR|os.O_CREATE|os.O_TRUNC, d.filePerm)
	if err != nil {
		return nil, fmt.Errorf("atomicfile: %w", err)
	}
	d.partials[abs+PartialSuffix] = abs
	return f, nil
}

// CreateIn creates the file path through the open Dir whose temporary
// holds it (see Dir.Create). A path in no open Dir is created as os.Create
// does, under its own name: its writer commits nothing as a whole.
func CreateIn(path string) (*os.File, error) {
	if d := dirOf(path); d != nil {
		return d.Create(path)
	}
	return os.Create(path)
}

// Commit syncs every file and directory under Path() and moves Path() to
// Name(). An existing directory at Name() is replaced: on Linux the two are
// swapped in one step (renameat2 RENAME_EXCHANGE), so a reader of Name()
// sees the whole old directory or the whole new one, and the old one is
// removed; where the system or file system has no such swap, the old one is
// renamed aside, the new one renamed in, then the old one removed, and
// Name() is missing between the two renames (if the second fails the old
// one is put back). An existing non-directory at Name() is an
// error. On failure the temporary is removed. Committing twice is a no-op;
// committing after Abort returns ErrAborted.
func (d *Dir) Commit() error {
	return d.finish(d.commitLocked)
}

// CommitInto commits an attempt that fills part of a folder it shares with
// other attempts (one partition of a dataset): each of subdirs, a path
// relative to Path(), moves to the same path under root, replacing what is
// there as Commit replaces Name(), in the order given; then the temporary
// is removed. Name() is not created. Each move is atomic, the set is not:
// the caller orders subdirs so that the last one marks the others complete.
func (d *Dir) CommitInto(root string, subdirs ...string) error {
	return d.finish(func() error { return d.commitIntoLocked(root, subdirs) })
}

// finish runs a commit once, under the lock, and settles the state.
func (d *Dir) finish(commit func() error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch d.state {
	case committed:
		return nil
	case aborted:
		return fmt.Errorf("%w: %s", ErrAborted, d.final)
	}
	err := commit()
	if err != nil {
		os.RemoveAll(d.tmp)
		d.state = aborted
	} else {
		d.state = committed
	}
	unregister(d)
	return err
}

// prepareLocked gives every file made by Create its own name, then syncs
// the whole tree: each file once, each directory after its contents.
func (d *Dir) prepareLocked() error {
	for partial, final := range d.partials {
		if err := os.Rename(partial, final); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("atomicfile: %w", err)
		}
	}
	return syncTree(d.tmp)
}

func (d *Dir) commitLocked() error {
	if err := d.prepareLocked(); err != nil {
		return err
	}
	parent := filepath.Dir(d.final)
	// A fresh directory beside the output reserves a unique name for the
	// old output, named so that RemoveStale finds it if this process dies.
	aside := func() (string, error) {
		return os.MkdirTemp(parent, tempPattern(filepath.Base(d.final), kindOld))
	}
	return replaceDir(d.tmp, d.final, aside)
}

func (d *Dir) commitIntoLocked(root string, subdirs []string) error {
	if err := d.prepareLocked(); err != nil {
		return err
	}
	for i, sub := range subdirs {
		src, dst := filepath.Join(d.tmp, sub), filepath.Join(root, sub)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("atomicfile: %w", err)
		}
		// What is replaced moves into the temporary, which goes last.
		aside := func() (string, error) {
			dir := filepath.Join(d.tmp, fmt.Sprintf(".replaced-%d", i))
			return dir, os.Mkdir(dir, 0o700)
		}
		if err := replaceDir(src, dst, aside); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(d.tmp); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	return nil
}

// replaceDir renames the directory src to dst and syncs dst's folder. An
// existing directory at dst is swapped with src in one step where the
// system can (exchange), so dst never goes missing, and then removed from
// src, where it now is. Elsewhere it is first moved into a fresh folder from
// aside, src renamed in, and the old one removed; between those two renames
// dst is missing, and if the second fails the old one is put back. An
// existing non-directory at dst is an error.
func replaceDir(src, dst string, aside func() (string, error)) error {
	info, err := os.Lstat(dst)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Rename(src, dst); err != nil {
			return fmt.Errorf("atomicfile: %w", err)
		}
		return syncDir(filepath.Dir(dst))
	case err != nil:
		return fmt.Errorf("atomicfile: %w", err)
	case !info.IsDir():
		return fmt.Errorf("atomicfile: %s exists and is not a directory", dst)
	}
	switch err := exchangeDirs(src, dst); {
	case err == nil:
		return removeExchanged(src, dst)
	case !errors.Is(err, errNoExchange):
		return fmt.Errorf("atomicfile: replacing %s: %w", dst, err)
	}
	return replaceAside(src, dst, aside)
}

// removeExchanged finishes an exchange: dst's folder (and src's, when it
// is another) is synced so the swap survives a crash, then the old
// directory, now at src, is removed. A crash before that leaves it under
// src's temporary name, which RemoveStale recognises.
func removeExchanged(src, dst string) error {
	if err := syncDir(filepath.Dir(dst)); err != nil {
		return err
	}
	if filepath.Dir(src) != filepath.Dir(dst) {
		if err := syncDir(filepath.Dir(src)); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(src); err != nil {
		return fmt.Errorf("atomicfile: remove old %s: %w", dst, err)
	}
	return nil
}

// replaceAside replaces dst with src by two renames, for systems without
// an exchange: the old directory moves into a fresh folder from aside, src
// is renamed in, the old one is removed. Between the renames dst is
// missing; if the second fails the old one is put back.
func replaceAside(src, dst string, aside func() (string, error)) error {
	holder, err := aside()
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	old := filepath.Join(holder, filepath.Base(dst))
	if err := os.Rename(dst, old); err != nil {
		os.Remove(holder)
		return fmt.Errorf("atomicfile: move old %s aside: %w", dst, err)
	}
	if err := os.Rename(src, dst); err != nil {
		if rerr := os.Rename(old, dst); rerr != nil {
			return fmt.Errorf("atomicfile: %w (and the old directory stays at %s: %v)", err, old, rerr)
		}
		os.Remove(holder)
		return fmt.Errorf("atomicfile: %w", err)
	}
	if err := syncDir(filepath.Dir(dst)); err != nil {
		return err
	}
	if err := os.RemoveAll(holder); err != nil {
		return fmt.Errorf("atomicfile: remove old %s: %w", holder, err)
	}
	return nil
}

// syncWorkers is how many files syncTree syncs at once: a chosen bound
// (Gnutella30's 1.1 GB of part files took 0.83 s to sync one by one and
// 0.75 s sixteen at a time, one run each on an H200 host; the disk bounds
// it either way).
const syncWorkers = 16

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
	// The files at once: each sync waits for its file's pages to reach
	// the disk, and a table of many part files (hundreds for an all-pairs
	// table) lets the disk take them side by side instead of one after
	// another.
	errs := make([]error, len(files))
	parallel.For(len(files), syncWorkers, func(i int) { errs[i] = syncFile(files[i]) })
	if err := errors.Join(errs...); err != nil {
		return err
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
