package compute

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/pathflow/pathflow/internal/chfile"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/mapfile"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/runlog"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// FactStoredHierarchy is the run facts key under which compute reports
// the contraction hierarchy it read from the input folder.
const FactStoredHierarchy = "stored_hierarchy"

// StoredHierarchyFacts is what compute reports of a stored hierarchy it
// answered from.
type StoredHierarchyFacts struct {
	// Files are the hierarchy's files, by name, in the input folder:
	// HierarchyName, or the three tables of an older ingest output.
	Files []string `json:"files"`
	// GraphChecksum is the checksum the hierarchy and the graph share.
	GraphChecksum string `json:"graph_checksum"`
	// CheckSeconds is the time to get the graph's checksum (recorded in
	// graph.csr, else hashed) and compare; LoadSeconds the time to map
	// and check the file, or to read and validate the tables.
	CheckSeconds float64 `json:"check_s"`
	LoadSeconds  float64 `json:"load_s"`
	// Shortcuts and Rounds describe the hierarchy.
	Shortcuts int `json:"shortcuts"`
	Rounds    int `json:"rounds"`
}

// storedHierarchy is the hierarchy an ingest output holds, found to be of
// the loaded graph, before it is read.
type storedHierarchy struct {
	// paths are the files it is read from; named is the one that errors
	// and the plan's reason name.
	paths []string
	named string
	// sum is the graph checksum it records, the loaded graph's.
	sum string
	// load reads it on workers goroutines, checked against the manifest.
	load func(workers int) (*hierarchy.Hierarchy, error)
	// shortcuts is the count the manifest records with the files' checksums,
	// 0 when it records none: counted again, it reads every arc's middle,
	// which maps 0.43 GB of a 24M-vertex hierarchy file into the process
	// for a number in the manifest.
	shortcuts int
}

// storedHierarchyFor returns the hierarchy of an ingest output input
// whose recorded graph checksum matches the loaded graph, or nil when the
// input holds none: its mapped file (HierarchyName) when the manifest
// lists one or one is there, else the tables an older ingest wrote. A
// hierarchy of another graph is an *InputError naming its file: it is
// never used, nor silently skipped; so are files the input's manifest
// lists but that are missing, and files it does not list. Cost: the
// header of the mapped file (or the footer of a table), and the graph's
// checksum: O(1) when the graph was mapped from a reload file that
// records it, else one pass over the arcs on every worker.
func storedHierarchyFor(g *input.LoadedGraph, workers int) (*storedHierarchy, error) {
	if g.Folder == "" || g.Listing() == nil {
		return nil, nil
	}
	path := filepath.Join(g.Folder, output.HierarchyName)
	_, statErr := os.Stat(path)
	if mapfile.LittleEndian && (g.Listing().Entry(path) != nil || statErr == nil) {
		return mappedHierarchyFor(g, path, workers)
	}
	return tableHierarchyFor(g, workers)
}

// mappedHierarchyFor is storedHierarchyFor for the mapped file at path.
// Its header and metadata are checked by their CRC here; its arrays by
// their block CRCs, and the whole file against the checksum the manifest
// lists, when it is loaded.
func mappedHierarchyFor(g *input.LoadedGraph, path string, workers int) (*storedHierarchy, error) {
	if err := g.Listing().ListedOrMissing(path); err != nil {
		return nil, &stageerr.InputError{Err: err}
	}
	info, err := chfile.ReadInfo(path)
	if err != nil {
		return nil, &stageerr.InputError{Err: fmt.Errorf("%w (ingest the graph again)", err)}
	}
	if sum := g.GraphChecksum(workers); info.GraphChecksum != sum {
		return nil, &stageerr.InputError{Err: staleHierarchy(path, info.GraphChecksum, g.File, sum)}
	}
	listing := g.Listing()
	load := func(workers int) (*hierarchy.Hierarchy, error) {
		f, err := chfile.Open(path, workers)
		if err != nil {
			return nil, fmt.Errorf("%w (ingest the graph again)", err)
		}
		if err := listing.CheckMapped(path, f.Bytes, f.Checksum); err != nil {
			return nil, err
		}
		return f.Hierarchy, nil
	}
	return &storedHierarchy{paths: []string{path}, named: path, sum: info.GraphChecksum, load: load, shortcuts: listing.RecordedShortcuts()}, nil
}

// tableHierarchyFor is storedHierarchyFor for the three Parquet tables of
// an ingest output that holds no mapped file: their checksum is read from
// the footer of the ranks table here; they are checked against the
// manifest's SHA-256 as they are decoded, and validated whole, when
// loaded.
func tableHierarchyFor(g *input.LoadedGraph, workers int) (*storedHierarchy, error) {
	files := tables.HierarchyFilesIn(g.Folder)
	listed := false
	for _, p := range files.Paths() {
		listed = listed || g.Listing().Entry(p) != nil
	}
	if _, err := os.Stat(files.Ranks); !listed && errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	for _, p := range files.Paths() {
		if err := g.Listing().ListedOrMissing(p); err != nil {
			return nil, &stageerr.InputError{Err: err}
		}
	}
	recorded, err := tables.ReadHierarchyChecksum(files)
	if err != nil {
		// A footer that does not decode: say so if the file is not the
		// one ingest wrote.
		if checkErr := g.Listing().Check(files.Ranks); checkErr != nil {
			return nil, &stageerr.InputError{Err: checkErr}
		}
		return nil, &stageerr.InputError{Err: err}
	}
	sum := g.GraphChecksum(workers)
	if recorded != sum {
		// Tables of another graph copied in, or damage in the recorded
		// checksum itself: the manifest tells which.
		if checkErr := g.Listing().Check(files.Ranks); checkErr != nil {
			return nil, &stageerr.InputError{Err: fmt.Errorf("%w; it records graph checksum %s, not that of the graph read from %s (%s): a contraction hierarchy of another graph, or a damaged one",
				checkErr, recorded, g.File, sum)}
		}
		return nil, &stageerr.InputError{Err: staleHierarchy(files.Ranks, recorded, g.File, sum)}
	}
	listing := g.Listing()
	load := func(workers int) (h *hierarchy.Hierarchy, err error) {
		err = listing.VerifiedRead(files.Paths(), func() (err error) {
			h, _, err = tables.ReadHierarchy(files, tables.WithConcurrency(workers))
			return err
		})
		return h, err
	}
	return &storedHierarchy{paths: files.Paths(), named: files.Ranks, sum: sum, load: load}, nil
}

// staleHierarchy is the error for the hierarchy file at path, which
// records graph checksum recorded, beside the graph read from graphFile,
// whose checksum is sum.
func staleHierarchy(path, recorded, graphFile, sum string) error {
	return fmt.Errorf("%s: a contraction hierarchy of another graph: it records graph checksum %s, and the graph read from %s has %s (run ingest again to rebuild it, or with ingest.hierarchy: off to drop it; input.simplify changes the arcs of a table input too)",
		path, recorded, graphFile, sum)
}

// loadStoredHierarchy reads the hierarchy s (found by storedHierarchyFor)
// on workers goroutines, checked against the input's manifest, and
// reports it as a run fact.
func loadStoredHierarchy(s *storedHierarchy, workers int, checked time.Duration, run *computeRun, log *slog.Logger) (*hierarchy.Hierarchy, float64, error) {
	began := time.Now()
	h, err := s.load(workers)
	if err != nil {
		return nil, 0, &stageerr.InputError{Err: err}
	}
	loaded := time.Since(began)
	shortcuts := s.shortcuts
	if shortcuts == 0 {
		shortcuts = h.Shortcuts()
	}
	facts := StoredHierarchyFacts{GraphChecksum: h.GraphChecksum, CheckSeconds: runlog.Round3(checked.Seconds()),
		LoadSeconds: runlog.Round3(loaded.Seconds()), Shortcuts: shortcuts, Rounds: h.Rounds}
	for _, p := range s.paths {
		facts.Files = append(facts.Files, filepath.Base(p))
	}
	run.facts.add(FactStoredHierarchy, facts)
	log.Info("stored contraction hierarchy loaded", "file", s.named, "check_s", facts.CheckSeconds, "load_s", facts.LoadSeconds,
		"shortcuts", facts.Shortcuts, "rounds", facts.Rounds)
	// Unrounded: the caller subtracts it from a stage that contains it.
	return h, (checked + loaded).Seconds(), nil
}
