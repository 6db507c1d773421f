//go:build linux

package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the directories a and b in one step with
// renameat2(RENAME_EXCHANGE), so that a reader of b sees either the old
// entry or the new one and never a missing name. A kernel older than 3.15
// answers ENOSYS and some file systems (NFS, FUSE, older overlayfs) EINVAL
// or EOPNOTSUPP: those are reported as errNoExchange, and the caller falls
// back to two renames.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL), errors.Is(err, unix.EOPNOTSUPP):
		return errNoExchange
	}
	return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
}
