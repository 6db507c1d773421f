package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// syncDir makes the entries of dir (a rename into it) durable. File systems
// that cannot sync a directory report EINVAL or ENOTSUP; their renames are as
// durable as they get, so those errors are not failures.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return fmt.Errorf("atomicfile: sync %s: %w", dir, err)
	}
	return nil
}

// syncFile flushes one existing file to stable storage.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("atomicfile: sync %s: %w", path, err)
	}
	return nil
}
