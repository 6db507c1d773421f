//go:build unix

package mapfile

import (
	"os"
	"syscall"
)

// Map maps the size bytes of f copy-on-write: reads come from the
// page cache, and a write makes a private copy of its page.
func Map(f *os.File, size int64) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
}
