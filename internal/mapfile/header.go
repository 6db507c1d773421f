package mapfile

import (
	"fmt"
	"io"
	"os"
)

// ReadFixed reads the first n bytes of f, a mapped file's fixed-size
// header, and returns them with the file's size. A file shorter than the
// header is reported as truncated.
func ReadFixed(f *os.File, n int) (fixed []byte, size int64, err error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	size = st.Size()
	fixed = make([]byte, n)
	if _, err := io.ReadFull(f, fixed); err != nil {
		return nil, 0, fmt.Errorf("truncated: %d bytes, shorter than the %d-byte header", size, n)
	}
	return fixed, size, nil
}

// CheckSize compares the three sizes a mapped file has: the one its
// header states, the one its header's counts lay out, and the one on
// disk. Any disagreement is an error saying which: a corrupt header, a
// truncated file, or bytes appended.
func CheckSize(stated, laidOut, onDisk int64) error {
	switch {
	case laidOut != stated:
		return fmt.Errorf("corrupt header: it says %d bytes, its counts make %d", stated, laidOut)
	case onDisk < stated:
		return fmt.Errorf("truncated: %d bytes, the header says %d", onDisk, stated)
	case onDisk > stated:
		return fmt.Errorf("%d bytes, the header says %d: something was appended", onDisk, stated)
	}
	return nil
}
