package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"time"

	"github.com/pathflow/pathflow/internal/chfile"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/mapfile"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/runlog"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// KeyIngestHierarchy says whether ingest stores a contraction hierarchy
// of the graph beside its tables.
const KeyIngestHierarchy = "ingest.hierarchy"

// KeyIngestHierarchyTables says whether ingest also writes a stored
// hierarchy as the three Parquet tables, for analysts: compute reads the
// mapped file (HierarchyName) whenever the manifest lists one.
const KeyIngestHierarchyTables = "ingest.hierarchy_tables"

// Values of ingest.hierarchy.
const (
	HierarchyAuto = "auto"
	HierarchyOn   = "on"
	HierarchyOff  = "off"
)

// HierarchyKey declares ingest.hierarchy; compute accepts it too
// (without a flag) so that one config file can serve both commands.
func HierarchyKey(flag string) config.Key {
	return config.Key{Name: KeyIngestHierarchy, Default: HierarchyAuto, Flag: flag,
		Usage: fmt.Sprintf("ingest: store a contraction hierarchy beside the tables for compute's ch: auto (weights >= 0, >= %d vertices, and a sample of %d vertices contracts like a road network: <= %d settled vertices per vertex, <= %g shortcuts per arc), on, off",
			AutoHierarchyMinN, AutoTrialVertices, AutoTrialMaxSettled, AutoTrialMaxShortcutsPerArc)}
}

// HierarchyTablesKey declares ingest.hierarchy_tables; compute accepts it
// too (without a flag), as ingest.hierarchy.
func HierarchyTablesKey(flag string) config.Key {
	return config.Key{Name: KeyIngestHierarchyTables, Default: true, Flag: flag,
		Usage: "ingest: beside " + output.HierarchyName + " (the stored hierarchy compute maps), write it as hierarchy_ranks.parquet, hierarchy_up.parquet and hierarchy_down.parquet for analysts; compute reads them only from older ingest outputs"}
}

// wantHierarchy decides whether ingest stores a hierarchy of e (g is e
// as rows, built only when needed: call rows for it), and says why. auto
// asks roadLike, which contracts a sample of the graph.
func wantHierarchy(ctx context.Context, setting, output string, e *graph.EdgeList, rows func() *graph.CSR, workers int) (bool, string, error) {
	if setting == HierarchyOff {
		return false, "ingest.hierarchy is off", nil
	}
	if output == IngestBinary || output == IngestDIMACS {
		return false, fmt.Sprintf("a %s conversion carries no hierarchy (compute reads it as a raw graph)", output), nil
	}
	lo, _ := e.WeightRange()
	if lo < 0 {
		return false, fmt.Sprintf("the graph has an arc of weight %d: a contraction hierarchy needs non-negative weights", lo), nil
	}
	if setting == HierarchyOn {
		return true, "ingest.hierarchy is on", nil
	}
	return roadLike(ctx, rows(), workers)
}

// writeIngestHierarchy builds the hierarchy of g, when cfg and the graph
// call for one, laid out along the vertices' coordinates when there are
// any, and writes it into dir: HierarchyName, and its tables when
// ingest.hierarchy_tables says so (or when the host, big-endian, cannot
// write the mapped file). It returns the files written (none when no
// hierarchy is wanted) and what the manifest records.
func writeIngestHierarchy(ctx context.Context, cfg *Config, dir string, g *input.LoadedGraph, stored func() storedRows, log *slog.Logger) ([]tables.FileInfo, *output.HierarchyManifest, error) {
	hm := &output.HierarchyManifest{Setting: cfg.Hierarchy}
	workers := runtime.GOMAXPROCS(0)
	want, why, err := wantHierarchy(ctx, cfg.Hierarchy, cfg.Output, g.Edges, g.Rows, workers)
	if err != nil {
		return nil, nil, err
	}
	hm.Reason = why
	if !want {
		if cfg.Hierarchy == HierarchyOn {
			return nil, nil, config.Errorf(KeyIngestHierarchy, "on, but %s", hm.Reason)
		}
		log.Info("no contraction hierarchy stored", "why", hm.Reason)
		return nil, hm, nil
	}
	began := time.Now()
	hm.GraphChecksum = g.GraphChecksum(workers)
	opts := []hierarchy.Option{hierarchy.WithWorkers(workers), hierarchy.WithChecksum(hm.GraphChecksum)}
	if g.Vertices.HasCoordinates() {
		opts = append(opts, hierarchy.WithCoordinates(g.Vertices.X, g.Vertices.Y))
		hm.Coordinates = true
	}
	// With the metric beside the weights, the hierarchy keeps the paths
	// shortest by (weight, metric), and answers runs that report it as
	// well as those that do not.
	rows := stored()
	h, err := hierarchy.Build(ctx, rows.csr, opts...)
	if err != nil {
		return nil, nil, &stageerr.ComputeError{Err: fmt.Errorf("building the contraction hierarchy: %w", err)}
	}
	h.Metric = rows.metric
	hm.Metric = rows.metric
	hm.BuildSeconds = runlog.Round3(time.Since(began).Seconds())
	hm.Shortcuts, hm.Rounds, hm.UpArcs, hm.DownArcs = h.Shortcuts(), h.Rounds, len(h.Up.Targets), len(h.Down.Targets)
	began = time.Now()
	var files []tables.FileInfo
	mapped, err := writeHierarchyFile(dir, h, input.Metadata(g))
	switch {
	case errors.Is(err, chfile.ErrBigEndian):
	case err != nil:
		return nil, nil, &stageerr.OutputError{Err: err}
	default:
		files = append(files, mapped)
	}
	if cfg.HierarchyTables || len(files) == 0 {
		written, err := tables.WriteHierarchy(tables.HierarchyFilesIn(dir), h, input.Metadata(g),
			tables.WithCompression(hierarchyCompression(cfg)), tables.WithBatchRows(cfg.BatchRows))
		if err != nil {
			return nil, nil, &stageerr.OutputError{Err: err}
		}
		files = append(files, written...)
	}
	hm.WriteSeconds = runlog.Round3(time.Since(began).Seconds())
	hm.Stored = true
	for _, f := range files {
		hm.Files = append(hm.Files, filepath.Base(f.Path))
	}
	log.Info("contraction hierarchy stored", "why", hm.Reason, "build_s", hm.BuildSeconds, "write_s", hm.WriteSeconds,
		"shortcuts", hm.Shortcuts, "rounds", hm.Rounds, "coordinates", hm.Coordinates)
	return files, hm, nil
}

// writeHierarchyFile writes the mapped file of h into dir, with meta. Like
// the reload file it holds nothing of the run, so the same hierarchy gives
// the same bytes. O(n + arcs): one pass of writing and hashing.
func writeHierarchyFile(dir string, h *hierarchy.Hierarchy, meta map[string]string) (tables.FileInfo, error) {
	return writeMappedFile(dir, output.HierarchyName, int64(h.N), func(w io.Writer) (mapfile.Written, error) {
		return chfile.Write(w, h, meta)
	})
}

// hierarchyCompression is the codec of the hierarchy's Parquet tables:
// the graph tables' when they are Parquet, snappy beside Arrow IPC ones.
func hierarchyCompression(cfg *Config) tables.Compression {
	if cfg.Tables == tables.Parquet {
		return cfg.Compression
	}
	return tables.Snappy
}
