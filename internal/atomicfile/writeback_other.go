//go:build !linux

package atomicfile

import "os"

// StartWriteback does nothing here: this system has no way to start a
// file's writeback without waiting for it, so the commit's sync does all
// of it (see the Linux version).
func StartWriteback(f *os.File) {}
