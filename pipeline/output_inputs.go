package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/tables"
)

// readPath is a file or folder a run reads, with the key that names it.
type readPath struct {
	key  string
	path string
}

// inputPaths lists what a graph input reads: input.path (for a table file
// of an ingest output, the whole folder, whose vertices table, reload file
// and hierarchy compute reads too), input.coordinates, and a dataset's
// files as found in the mirror folder or the download cache (a file still
// to be downloaded is read from nowhere the output could be yet).
func inputPaths(spec InputSpec) []readPath {
	var paths []readPath
	if spec.Path != "" {
		paths = append(paths, readPath{KeyInputPath, tableFolder(spec.Path)})
	}
	if spec.Coordinates != "" {
		paths = append(paths, readPath{KeyInputCoordinates, spec.Coordinates})
	}
	if spec.Path == "" && spec.Dataset != "" {
		d, err := datasets.Lookup(spec.Dataset)
		if err != nil {
			return paths // LoadGraph reports it
		}
		// Offline: finding the files must not download them before the
		// output is known to be allowed.
		f := &datasets.Fetcher{Mirror: spec.Mirror, Offline: true}
		files := []datasets.File{d.Graph}
		if d.Coordinates != nil && spec.Coordinates == "" {
			files = append(files, *d.Coordinates)
		}
		for _, file := range files {
			if p, err := f.Locate(context.Background(), file); err == nil {
				paths = append(paths, readPath{KeyInputDataset, p})
			}
		}
	}
	return paths
}

// tableFolder returns the folder of an ingest output when path is its
// edges table, else path.
func tableFolder(path string) string {
	dir := filepath.Dir(path)
	for _, f := range []tables.Format{tables.Parquet, tables.Arrow} {
		if filepath.Base(tables.GraphFilesIn(dir, f).Edges) == filepath.Base(path) {
			return dir
		}
	}
	return path
}

// configPath lists the config file l read, if it is a file of the user's
// (not a command's built-in default).
func configPath(l *config.Loaded) string {
	if l.File == "" || l.Default {
		return ""
	}
	return l.File
}

// overlapCheck refuses the output folder out when it is, lies inside, or
// holds one of the paths the run reads: committing it would replace or
// delete the run's own input (compute -input IN -out IN removing the graph
// it read), or leave a foreign folder inside an ingest output. Paths are
// compared absolute with symbolic links followed (out may not exist yet:
// its nearest existing folder is resolved), and a folder reached by
// another name (a bind mount) is found by its identity. It runs before any
// work; the refusal is an *OutputError naming both paths and keys.
func overlapCheck(out string, inputs []readPath) error {
	outAbs, err := resolvePath(out)
	if err != nil {
		return &OutputError{fmt.Errorf("%s %s: %w", KeyOutputDir, out, err)}
	}
	for _, in := range inputs {
		if in.path == "" {
			continue
		}
		inAbs, err := resolvePath(in.path)
		if err != nil {
			return &OutputError{fmt.Errorf("%s %s: %w", in.key, in.path, err)}
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
		return &OutputError{fmt.Errorf("%s %s %s %s %s, which this run reads: committing the output would replace or delete its own input; set another %s",
			KeyOutputDir, shownPath(out, outAbs), how, in.key, shownPath(in.path, inAbs), KeyOutputDir)}
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

// readPaths lists every file and folder a compute run (a shard's, or
// finalize, alike) reads: the graph input's, the pair list and the config
// file.
func (c *ComputeConfig) readPaths() []readPath {
	paths := inputPaths(c.Input)
	if c.PairList != "" {
		paths = append(paths, readPath{KeyPairList, c.PairList})
	}
	if c.ConfigFile != "" {
		paths = append(paths, readPath{"-" + config.ConfigFlag, c.ConfigFile})
	}
	return paths
}

// readPaths lists every file and folder an ingest run reads: the graph
// input's and the config file.
func (c *IngestConfig) readPaths() []readPath {
	paths := inputPaths(c.Input)
	if c.ConfigFile != "" {
		paths = append(paths, readPath{"-" + config.ConfigFlag, c.ConfigFile})
	}
	return paths
}
