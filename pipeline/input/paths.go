package input

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// PathError is the error for a file or folder that key names and that
// cannot be opened. It names the key and the path the run looked at; a
// relative path is followed by its absolute form, since a relative path
// from a config file was resolved against the file's folder and one from
// a flag or variable against the working directory, which a scheduler's
// log does not show.
func PathError(key, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is named below, once
	}
	where := path
	if !filepath.IsAbs(path) {
		if abs, absErr := filepath.Abs(path); absErr == nil {
			where = fmt.Sprintf("%s (%s)", path, abs)
		}
	}
	return fmt.Errorf("%s: %s: %w", key, where, err)
}
