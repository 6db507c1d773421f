package input

import (
	"context"
	"path/filepath"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/output"
)

// ReadPaths lists what a graph input reads: input.path (for a table file
// of an ingest output, the whole folder, whose vertices table, reload file
// and hierarchy compute reads too), input.coordinates, input.metric.file, and a dataset's
// files as found in the mirror folder or the download cache (a file still
// to be downloaded is read from nowhere the output could be yet).
func ReadPaths(spec Spec) []output.ReadPath {
	var paths []output.ReadPath
	if spec.Path != "" {
		paths = append(paths, output.ReadPath{Key: KeyInputPath, Path: tableFolder(spec.Path)})
	}
	if spec.Coordinates != "" {
		paths = append(paths, output.ReadPath{Key: KeyInputCoordinates, Path: spec.Coordinates})
	}
	if spec.Metric.File != "" {
		paths = append(paths, output.ReadPath{Key: KeyInputMetricFile, Path: spec.Metric.File})
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
				paths = append(paths, output.ReadPath{Key: KeyInputDataset, Path: p})
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
