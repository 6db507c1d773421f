package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/tables"
)

// FactStoredHierarchy is the run facts key under which compute reports
// the contraction hierarchy it read from the input folder.
const FactStoredHierarchy = "stored_hierarchy"

// StoredHierarchyFacts is what compute reports of a stored hierarchy it
// answered from.
type StoredHierarchyFacts struct {
	// Files are the hierarchy's tables, by name, in the input folder.
	Files []string `json:"files"`
	// GraphChecksum is the checksum the hierarchy and the graph share.
	GraphChecksum string `json:"graph_checksum"`
	// CheckSeconds is the time to checksum the graph and compare;
	// LoadSeconds the time to read and validate the tables.
	CheckSeconds float64 `json:"check_s"`
	LoadSeconds  float64 `json:"load_s"`
	// Shortcuts and Rounds describe the hierarchy.
	Shortcuts int `json:"shortcuts"`
	Rounds    int `json:"rounds"`
}

// storedHierarchyFor returns the hierarchy files of an ingest output
// input whose recorded graph checksum matches the loaded graph, or no
// files when the input holds none. A hierarchy of another graph is an
// *InputError naming its file: it is never used, nor silently skipped;
// so are tables the input's manifest lists but that are missing, and
// tables it does not list. Cost: the footer of one table and one pass
// over the arcs (the graph's checksum, on every worker); the tables are
// checked against the manifest as they are read (loadStoredHierarchy).
func storedHierarchyFor(g *LoadedGraph, workers int) (files tables.HierarchyFiles, sum string, err error) {
	if g.Folder == "" || g.listing == nil {
		return files, "", nil
	}
	files = tables.HierarchyFilesIn(g.Folder)
	listed := false
	for _, p := range files.Paths() {
		listed = listed || g.listing.entry(p) != nil
	}
	if _, err := os.Stat(files.Ranks); !listed && errors.Is(err, fs.ErrNotExist) {
		return tables.HierarchyFiles{}, "", nil
	}
	for _, p := range files.Paths() {
		if err := g.listing.listedOrMissing(p); err != nil {
			return files, "", &InputError{err}
		}
	}
	recorded, err := tables.ReadHierarchyChecksum(files)
	if err != nil {
		// A footer that does not decode: say so if the file is not the
		// one ingest wrote.
		if checkErr := g.listing.check(files.Ranks); checkErr != nil {
			return files, "", &InputError{checkErr}
		}
		return files, "", &InputError{err}
	}
	sum = g.Rows().Checksum(workers)
	if recorded != sum {
		// Tables of another graph copied in, or damage in the recorded
		// checksum itself: the manifest tells which.
		if checkErr := g.listing.check(files.Ranks); checkErr != nil {
			return files, "", &InputError{fmt.Errorf("%w; it records graph checksum %s, not that of the graph read from %s (%s): a contraction hierarchy of another graph, or a damaged one",
				checkErr, recorded, g.File, sum)}
		}
		return files, "", &InputError{fmt.Errorf("%s: a contraction hierarchy of another graph: it records graph checksum %s, and the graph read from %s has %s (run ingest again to rebuild it, or with ingest.hierarchy: off to drop it; input.simplify changes the arcs of a table input too)",
			files.Ranks, recorded, g.File, sum)}
	}
	return files, sum, nil
}

// loadStoredHierarchy reads the hierarchy of files (checked by
// storedHierarchyFor) on workers goroutines, each table checked against
// listing while it is decoded, and reports it as a run fact.
func loadStoredHierarchy(files tables.HierarchyFiles, listing *ingestListing, workers int, checked time.Duration, run *computeRun, log *slog.Logger) (*hierarchy.Hierarchy, float64, error) {
	began := time.Now()
	var h *hierarchy.Hierarchy
	err := listing.verifiedRead(files.Paths(), func() (err error) {
		h, _, err = tables.ReadHierarchy(files, tables.WithConcurrency(workers))
		return err
	})
	if err != nil {
		return nil, 0, &InputError{err}
	}
	loaded := time.Since(began)
	facts := StoredHierarchyFacts{GraphChecksum: h.GraphChecksum, CheckSeconds: round3(checked.Seconds()),
		LoadSeconds: round3(loaded.Seconds()), Shortcuts: h.Shortcuts(), Rounds: h.Rounds}
	for _, p := range files.Paths() {
		facts.Files = append(facts.Files, filepath.Base(p))
	}
	run.facts.add(FactStoredHierarchy, facts)
	log.Info("stored contraction hierarchy loaded", "file", files.Ranks, "check_s", facts.CheckSeconds, "load_s", facts.LoadSeconds,
		"shortcuts", facts.Shortcuts, "rounds", facts.Rounds)
	// Unrounded: the caller subtracts it from a stage that contains it.
	return h, (checked + loaded).Seconds(), nil
}
