package output

import (
	"fmt"
	"os"
)

// CheckListed compares the file at path with f, its entry in a manifest:
// its size, then the SHA-256 of its bytes, so that a file damaged in place
// with its size unchanged is found too. O(size): one pass over the file.
// The error says what differs: a *NotOpenedError when the file cannot be
// opened (missing, or not readable), a *SizeMismatchError or a
// *SHA256MismatchError when its bytes are not those listed, and otherwise
// the error of reading it. Callers phrase the first three for their
// readers; their own messages are those of a compute output's manifest.
func CheckListed(path string, f ManifestFile) error {
	file, err := os.Open(path)
	if err != nil {
		return &NotOpenedError{Err: err}
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return err
	}
	if st.Size() != f.Bytes {
		return &SizeMismatchError{Path: path, Bytes: st.Size(), Listed: f.Bytes}
	}
	sum, err := SHA256Of(file)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if sum != f.SHA256 {
		return &SHA256MismatchError{Path: path, SHA256: sum, Listed: f.SHA256}
	}
	return nil
}

// NotOpenedError is CheckListed's error for a listed file it could not
// open: missing, or not readable.
type NotOpenedError struct {
	Err error // os.Open's, which names the file
}

func (e *NotOpenedError) Error() string { return e.Err.Error() }
func (e *NotOpenedError) Unwrap() error { return e.Err }

// SizeMismatchError is CheckListed's error for a file whose size is not
// the listed one: truncated, grown or replaced.
type SizeMismatchError struct {
	Path          string
	Bytes, Listed int64
}

func (e *SizeMismatchError) Error() string {
	return fmt.Sprintf("%s: %d bytes, the manifest lists %d", e.Path, e.Bytes, e.Listed)
}

// SHA256MismatchError is CheckListed's error for a file of the listed
// size whose bytes are not the listed ones.
type SHA256MismatchError struct {
	Path           string
	SHA256, Listed string
}

func (e *SHA256MismatchError) Error() string {
	return fmt.Sprintf("%s: SHA-256 %s, the manifest lists %s: changed since the run", e.Path, e.SHA256, e.Listed)
}
