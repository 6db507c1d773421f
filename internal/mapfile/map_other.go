//go:build !unix

package mapfile

import (
	"io"
	"os"
)

// Map reads the size bytes of f into memory, where the system has no
// mmap.
func Map(f *os.File, size int64) ([]byte, error) {
	b := make([]byte, size)
	_, err := f.ReadAt(b, 0)
	if err == io.EOF {
		err = nil
	}
	return b, err
}
