package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// ReadPath is a file or folder a run reads, with the key that names it.
type ReadPath struct {
	Key  string
	Path string
}

// ConfigPath lists the config file l read, if it is a file of the user's
// (not a command's built-in default).
func ConfigPath(l *config.Loaded) string {
	if l.File == "" || l.Default {
		return ""
	}
	return l.File
}

// OverlapCheck refuses the output folder out when it is, lies inside, or
// holds one of the paths the run reads: committing it would replace or
// delete the run's own input (compute -input IN -out IN removing the graph
// it read), or leave a foreign folder inside an ingest output. Paths are
// compared absolute with symbolic links followed (out may not exist yet:
// its nearest existing folder is resolved), and a folder reached by
// another name (a bind mount) is found by its identity. It runs before any
// work; the refusal is an *OutputError naming both paths and keys.
func OverlapCheck(out string, inputs []ReadPath) error {
	outAbs, err := resolvePath(out)
	if err != nil {
		return &stageerr.OutputError{Err: fmt.Errorf("%s %s: %w", KeyOutputDir, out, err)}
	}
	for _, in := range inputs {
		if in.Path == "" {
			continue
		}
		inAbs, err := resolvePath(in.Path)
		if err != nil {
			return &stageerr.OutputError{Err: fmt.Errorf("%s %s: %w", in.Key, in.Path, err)}
		}
		var how string
		switch {
		case within(outAbs, inAbs) && within(inAbs, outAbs):
			how = "is"
		case within(outAbs, inAbs):
			how = "holds"
		case within(inAbs, outAbs):
			how = "lies inside"
		default:
			continue
		}
		return &stageerr.OutputError{Err: fmt.Errorf("%s %s %s %s %s, which this run reads: committing the output would replace or delete its own input; set another %s",
			KeyOutputDir, shownPath(out, outAbs), how, in.Key, shownPath(in.Path, inAbs), KeyOutputDir)}
	}
	return nil
}

// shownPath names a path as given, with what it resolves to when that
// differs.
func shownPath(given, resolved string) string {
	if filepath.Clean(given) == resolved {
		return given
	}
	return given + " (" + resolved + ")"
}

// resolvePath returns path absolute, with the symbolic links of its
// longest existing part followed; the missing rest is appended as given.
func resolvePath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	var rest []string
	for p := abs; ; p = filepath.Dir(p) {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			return "", err
		}
		if filepath.Dir(p) == p {
			return abs, nil
		}
		rest = append([]string{filepath.Base(p)}, rest...)
	}
}

// within reports whether path is folder or lies below it: by name, or by
// identity when one of path's existing ancestors is folder reached by
// another name.
func within(folder, path string) bool {
	if rel, err := filepath.Rel(folder, path); err == nil &&
		rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return true
	}
	fi, err := os.Stat(folder)
	if err != nil {
		return false
	}
	for p := path; ; p = filepath.Dir(p) {
		if pi, err := os.Stat(p); err == nil && os.SameFile(fi, pi) {
			return true
		}
		if filepath.Dir(p) == p {
			return false
		}
	}
}
