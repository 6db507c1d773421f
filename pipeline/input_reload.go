package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/pathflow/pathflow/internal/csrfile"
	"github.com/pathflow/pathflow/internal/graph"
)

// ReloadName is the reload file of an ingest output: the graph's CSR and
// vertex table as raw arrays (see package csrfile), which compute maps
// instead of decoding the tables and sorting the arcs again.
const ReloadName = "graph.csr"

// MetaIngestRunID, in a reload file's metadata, is the run id of the
// ingest that wrote it; the manifest beside it must carry the same.
const MetaIngestRunID = "pathflow.ingest_run_id"

// loadReload loads the ingest output in dir from its reload file when its
// manifest lists one: ok false (and no error) when it does not, as in the
// outputs of older ingests, which then load from the tables. A reload
// file that is listed but missing, shorter or longer than listed, of
// another ingest run or graph than the manifest's, unlisted, or corrupt
// is refused with an error naming it: a stale file must not stand in for
// the tables beside it.
func loadReload(dir string) (g *LoadedGraph, ok bool, err error) {
	start := time.Now()
	path := filepath.Join(dir, ReloadName)
	listed, m := reloadListing(dir)
	_, statErr := os.Stat(path)
	switch {
	case listed == nil && errors.Is(statErr, fs.ErrNotExist):
		return nil, false, nil
	case listed == nil:
		return nil, false, fmt.Errorf("%s: stale reload file: the %s beside it does not list it (delete it, or ingest again)", path, ManifestName)
	case statErr != nil:
		return nil, false, fmt.Errorf("%s: listed in %s but not readable: %w", path, ManifestName, statErr)
	}
	r, err := csrfile.Open(path, runtime.GOMAXPROCS(0))
	if errors.Is(err, csrfile.ErrBigEndian) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if r.Bytes != listed.Bytes {
		return nil, false, fmt.Errorf("%s: %d bytes, %s lists %d: truncated or replaced (ingest again)", path, r.Bytes, ManifestName, listed.Bytes)
	}
	if err := checkReloadCurrent(path, r.Meta, m); err != nil {
		return nil, false, err
	}
	return &LoadedGraph{
		Edges:     r.Edges,
		CSR:       r.CSR,
		Vertices:  r.Vertices,
		File:      path,
		Name:      r.Meta[MetaInputFile],
		SHA256:    r.Meta[MetaInputSHA256],
		Format:    r.Meta[MetaInputFormat],
		Bytes:     r.Bytes,
		Directed:  r.Meta[MetaDirected] != "false",
		Weighting: r.Meta[MetaWeighting],
		Elapsed:   time.Since(start),
	}, true, nil
}

// reloadListing reads the ingest manifest in dir and returns its entry
// for the reload file, nil when there is no manifest or it lists none.
func reloadListing(dir string) (*ManifestFile, *IngestManifest) {
	var m IngestManifest
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil || json.Unmarshal(b, &m) != nil {
		return nil, nil
	}
	for i := range m.Files {
		if m.Files[i].Path == ReloadName {
			return &m.Files[i], &m
		}
	}
	return nil, nil
}

// checkReloadCurrent refuses a reload file written by another ingest run
// or of another graph than the manifest m describes.
func checkReloadCurrent(path string, meta map[string]string, m *IngestManifest) error {
	stale := func(what, file, manifest string) error {
		return fmt.Errorf("%s: stale reload file: its %s is %s, %s says %s (ingest again)", path, what, file, ManifestName, manifest)
	}
	switch {
	case meta[MetaIngestRunID] != m.RunID:
		return stale("ingest run", meta[MetaIngestRunID], m.RunID)
	case meta[MetaInputSHA256] != m.InputSHA256:
		return stale("input checksum", meta[MetaInputSHA256], m.InputSHA256)
	case meta[MetaN] != strconv.Itoa(int(m.N)) || meta[MetaM] != strconv.Itoa(m.M):
		return stale("size", meta[MetaN]+" vertices and "+meta[MetaM]+" arcs",
			fmt.Sprintf("%d and %d", m.N, m.M))
	}
	return nil
}

// Rows returns the graph in compressed sparse rows: the loaded CSR, or
// one built from the edge list (O(n + m) on every core).
func (g *LoadedGraph) Rows() *graph.CSR {
	if g.CSR == nil {
		g.CSR = graph.BuildCSR(g.Edges)
	}
	return g.CSR
}
