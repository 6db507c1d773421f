package input

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/pathflow/pathflow/internal/csrfile"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/pipeline/output"
)

// ReloadName is the reload file of an ingest output: the graph's CSR and
// vertex table as raw arrays (see package csrfile), which compute maps
// instead of decoding the tables and sorting the arcs again.
const ReloadName = "graph.csr"

// MetaGraphChecksum is the reload file's metadata key for the graph's
// checksum (graph.CSR.Checksum), taken at ingest, so that a run that maps
// the file compares it with a stored hierarchy's without hashing every arc
// (GraphChecksum). The tables do not carry it: a table input is hashed.
const MetaGraphChecksum = "pathflow.graph_checksum"

// MetaWeightRange is the reload file's metadata key for the smallest and
// largest arc weight ("lo,hi"; "0,0" without arcs), taken at ingest, so
// that a run that maps the file learns them without reading every weight:
// the planner, the backends and their checks each ask (graph.Recorded).
const MetaWeightRange = "pathflow.weight_range"

// FormatWeightRange writes a weight range as MetaWeightRange holds it.
func FormatWeightRange(lo, hi int32) string {
	return strconv.Itoa(int(lo)) + "," + strconv.Itoa(int(hi))
}

// parseWeightRange reads MetaWeightRange; ok is false for a value it does
// not hold (absent from the files of older ingests).
func parseWeightRange(s string) (lo, hi int32, ok bool) {
	a, b, found := strings.Cut(s, ",")
	l, err1 := strconv.ParseInt(a, 10, 32)
	h, err2 := strconv.ParseInt(b, 10, 32)
	if !found || err1 != nil || err2 != nil || l > h {
		return 0, 0, false
	}
	return int32(l), int32(h), true
}

// loadReload loads the ingest output of listing from its reload file
// when the manifest lists one: ok false (and no error) when it does not,
// as in the outputs of older ingests, which then load from the tables. A
// reload file that is listed but missing, shorter or longer than listed,
// another than the one listed (by its checksum of itself: of another
// ingest, or changed since), unlisted, or corrupt is refused with an
// error naming it: a stale file must not stand in for the tables beside
// it.
func loadReload(listing *Listing) (g *LoadedGraph, ok bool, err error) {
	start := time.Now()
	path := filepath.Join(listing.dir, ReloadName)
	listed := listing.Entry(path)
	_, statErr := os.Stat(path)
	switch {
	case listed == nil && errors.Is(statErr, fs.ErrNotExist):
		return nil, false, nil
	case listed == nil:
		return nil, false, fmt.Errorf("%s: stale reload file: the %s beside it does not list it (delete it, or ingest again)", path, output.ManifestName)
	case statErr != nil:
		return nil, false, listing.missing(path, statErr)
	}
	r, err := csrfile.Open(path, runtime.GOMAXPROCS(0))
	if errors.Is(err, csrfile.ErrBigEndian) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%w (ingest the graph again)", err)
	}
	if err := checkReloadCurrent(path, r, listing); err != nil {
		return nil, false, err
	}
	g = &LoadedGraph{
		Edges:      r.Edges,
		CSR:        r.CSR,
		Vertices:   r.Vertices,
		File:       path,
		Name:       r.Meta[MetaInputFile],
		SHA256:     r.Meta[MetaInputSHA256],
		Format:     r.Meta[MetaInputFormat],
		Bytes:      r.Bytes,
		Directed:   r.Meta[MetaDirected] != "false",
		Weighting:  r.Meta[MetaWeighting],
		WeightUnit: r.Meta[MetaWeightUnit],
		Elapsed:    time.Since(start),
	}
	if r.Metric != "" {
		g.ArcMetric, g.ArcMetricUnit = r.Metric, r.Meta[csrfile.MetaMetricUnit]
	}
	if sum := r.Meta[MetaGraphChecksum]; sum != "" { // absent from the files of older ingests
		g.checksum, g.checksumOf = sum, r.CSR
	}
	if lo, hi, ok := parseWeightRange(r.Meta[MetaWeightRange]); ok {
		// The file's CRCs and the checksum its manifest lists vouch for
		// its metadata and arrays, as for the graph checksum; an ingest
		// writes the rows of a checked edge list, so they are valid too.
		r.CSR.Record(graph.Recorded{MinWeight: lo, MaxWeight: hi, Valid: true})
		r.Edges.RecordWeightRange(lo, hi)
	}
	return g, true, nil
}

// checkReloadCurrent refuses a reload file r (which passed its own
// checks) other than the one the manifest lists (Listing.CheckMapped): of
// another size, or of another checksum of itself, so the check costs
// nothing beside Open's; of another SHA-256, one more pass over the file,
// where an older ingest recorded no such checksum. The graph its metadata
// describes must be the manifest's too.
func checkReloadCurrent(path string, r *csrfile.Graph, listing *Listing) error {
	stale := func(what, file, manifest string) error {
		return fmt.Errorf("%s: stale reload file: its %s is %s, %s says %s: written by another ingest, or changed since (ingest the graph again)", path, what, file, output.ManifestName, manifest)
	}
	var mismatch *mappedMismatch
	err := listing.CheckMapped(path, r.Bytes, r.Checksum)
	switch {
	case errors.As(err, &mismatch) && mismatch.what == "size":
		return fmt.Errorf("%s: %s, %s lists %s: truncated or replaced (ingest the graph again)", path, mismatch.got, output.ManifestName, mismatch.listed)
	case errors.As(err, &mismatch):
		return stale(mismatch.what, mismatch.got, mismatch.listed)
	case err != nil:
		return err
	}
	m, meta := listing.manifest, r.Meta
	switch {
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

// RecordedChecksum is the graph checksum the reload file the graph was
// mapped from records, "" when it was not mapped from one or its rows have
// changed since: GraphChecksum returns it without hashing the arcs.
func (g *LoadedGraph) RecordedChecksum() string {
	if g.CSR == nil || g.checksumOf != g.CSR {
		return ""
	}
	return g.checksum
}

// GraphChecksum returns the checksum of the graph's rows
// (graph.CSR.Checksum): the one the reload file it was mapped from
// records, O(1), else computed once on workers goroutines, O(m). The
// recorded one is trusted because the file's CRCs and the checksum its
// manifest lists vouch for its metadata as for its arcs; it is tied to the
// mapped CSR, so arcs changed after the load (input.simplify) are hashed.
func (g *LoadedGraph) GraphChecksum(workers int) string {
	rows := g.Rows()
	if g.checksumOf != rows {
		g.checksum, g.checksumOf = rows.Checksum(workers), rows
	}
	return g.checksum
}
