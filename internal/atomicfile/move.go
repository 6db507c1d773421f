package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Move renames the file or folder from to to, both under Path(), making
// to's folders, before Commit: it reshapes an uncommitted output. Files
// made by Create under from keep their pending (*.partial) names and get
// their own at Commit under the new path.
func (d *Dir) Move(from, to string) error {
	src, err := d.inside(from)
	if err != nil {
		return err
	}
	dst, err := d.inside(to)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.state != open {
		return fmt.Errorf("%w: %s", ErrAborted, d.final)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	if final, ok := d.partials[src+PartialSuffix]; ok && final == src {
		if err := os.Rename(src+PartialSuffix, dst+PartialSuffix); err != nil {
			return fmt.Errorf("atomicfile: %w", err)
		}
		delete(d.partials, src+PartialSuffix)
		d.partials[dst+PartialSuffix] = dst
		return nil
	}
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	prefix := src + string(filepath.Separator)
	for partial, final := range d.partials {
		if strings.HasPrefix(final, prefix) {
			delete(d.partials, partial)
			moved := dst + final[len(src):]
			d.partials[moved+PartialSuffix] = moved
		}
	}
	return nil
}

// inside returns path as an absolute path if it lies under Path().
func (d *Dir) inside(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("atomicfile: %w", err)
	}
	if rel, err := filepath.Rel(d.abs, abs); err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("atomicfile: %s is not inside %s", path, d.tmp)
	}
	return abs, nil
}
