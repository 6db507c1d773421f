package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/tables"
)

// ManifestName is the run manifest's file name inside the output folder.
// It is written last: its presence means the run's outputs are complete.
const ManifestName = "manifest.json"

// Manifest records a compute run for schedulers and for skip_if_unchanged.
// It is the one output that holds timings; the data files hold none.
type Manifest struct {
	Version string `json:"version"`
	// RunID is random per run: it tells two commits of the same settings
	// apart (a run that finds the output committed by another names it).
	RunID string `json:"run_id,omitempty"`
	// StartedAt and FinishedAt are when the run began and when it wrote
	// this manifest, and Host the machine it ran on (see runStamp): what
	// an operator matches against a scheduler's log.
	StartedAt    string `json:"started_at,omitempty"`
	FinishedAt   string `json:"finished_at,omitempty"`
	Host         string `json:"host,omitempty"`
	InputFile    string `json:"input_file"`
	InputSHA256  string `json:"input_sha256"`
	ConfigSHA256 string `json:"config_sha256"`
	Backend      string `json:"backend"`
	Device       string `json:"device"`
	Algorithm    string `json:"algorithm"`
	Variant      string `json:"variant,omitempty"`
	Reason       string `json:"algorithm_reason"`
	// BackendReason says how the backend was picked.
	BackendReason string `json:"backend_reason"`
	// Workers is the number of host goroutines: a run fact that changes
	// no output byte.
	Workers int `json:"workers"`
	// Devices are the GPU ordinals compute.devices asked for, absent when
	// it asked for every visible one: a run fact too.
	Devices []int `json:"devices,omitempty"`
	// PeakRSSBytes is the process's peak resident memory when the manifest
	// was written.
	PeakRSSBytes int64 `json:"peak_rss_bytes,omitempty"`
	N            int32 `json:"n"`
	M            int   `json:"m"`
	Sources      int   `json:"sources"`
	// Reachable[i] is the number of vertices source i reaches (itself
	// included), in output order; omitted beyond 4096 sources.
	Reachable []int64 `json:"reachable,omitempty"`
	// StagesSeconds times each stage: load (read the graph), backend (plan
	// and open it), csr (build the compressed sparse rows; near zero when
	// the input's reload file held them), compute (the backend's run, during which the writers
	// encode), write_tail (the writers finishing after the run), extras
	// (paths and summary tables).
	StagesSeconds map[string]float64 `json:"stages_seconds"`
	// RunFacts are what the backend decided and measured (for example per
	// GPU: sources searched, rows per launch, launches, busy seconds): run
	// facts, like the timings, that change no output byte.
	RunFacts map[string]any `json:"run_facts,omitempty"`
	Files    []ManifestFile `json:"files"`
}

// ManifestFile is one output file, relative to the output folder.
type ManifestFile struct {
	Path   string `json:"path"`
	Rows   int64  `json:"rows"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
	// Checksum is the reload file's checksum of itself ("crc32c:..."),
	// which compute compares instead of hashing the file (see package
	// csrfile); absent for other files.
	Checksum string `json:"checksum,omitempty"`
}

// manifestFiles converts table file infos to paths relative to root.
func manifestFiles(root string, infos []tables.FileInfo) []ManifestFile {
	out := make([]ManifestFile, 0, len(infos))
	for _, fi := range infos {
		rel, err := filepath.Rel(root, fi.Path)
		if err != nil {
			rel = fi.Path
		}
		out = append(out, ManifestFile{Path: filepath.ToSlash(rel), Rows: fi.Rows, Bytes: fi.Bytes, SHA256: fi.SHA256, Checksum: fi.Checksum})
	}
	return out
}

// IngestManifest records an ingest run: what it read and the files it
// wrote. Its version, input checksum and file list are those of a compute
// manifest, which is how a later run recognises the folder as pathflow's.
type IngestManifest struct {
	Version string `json:"version"`
	RunID   string `json:"run_id"`
	// StartedAt, FinishedAt and Host are as in Manifest.
	StartedAt    string `json:"started_at"`
	FinishedAt   string `json:"finished_at"`
	Host         string `json:"host"`
	InputFile    string `json:"input_file"`
	InputSHA256  string `json:"input_sha256"`
	InputFormat  string `json:"input_format"`
	OutputFormat string `json:"output_format"`
	N            int32  `json:"n"`
	M            int    `json:"m"`
	// Seconds is the run's time up to the commit.
	Seconds float64        `json:"seconds"`
	Files   []ManifestFile `json:"files"`
	// Hierarchy says whether a contraction hierarchy was stored and why.
	Hierarchy *HierarchyManifest `json:"hierarchy,omitempty"`
}

// stampLayout is RFC 3339 in UTC with milliseconds, fixed width, so that
// stamps sort as text: "2026-01-02T15:04:05.000Z".
const stampLayout = "2006-01-02T15:04:05.000Z07:00"

// stamp renders t for a manifest's started_at and finished_at.
func stamp(t time.Time) string { return t.UTC().Format(stampLayout) }

// hostName is the machine's name for a manifest, "" when the system will
// not tell.
func hostName() string {
	name, err := os.Hostname()
	if err != nil {
		return ""
	}
	return name
}

// writeManifest writes m as indented JSON into dir, atomically.
func writeManifest(dir string, m *Manifest) error {
	return writeJSON(filepath.Join(dir, ManifestName), m)
}

// writeJSON writes v as indented JSON to path, atomically.
func writeJSON(path string, v any) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	enc := json.NewEncoder(f)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return f.Commit()
}

// ReadManifest reads the manifest of an output folder.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestName), err)
	}
	return &m, nil
}

// upToDate reports whether dir already holds a complete run of the same
// input, settings and version: every file the manifest lists is present
// with its recorded size and SHA-256, so that a damaged output is never
// taken for a finished one. When it does not, why says what differs. The
// files are hashed a goroutine each, up to one per core: a pass over the
// outputs, cheap beside computing them again.
func upToDate(dir, inputSHA, configSHA string, distances bool) (ok bool, why string) {
	m, err := ReadManifest(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, "no " + ManifestName + ": no earlier run"
	case err != nil:
		return false, err.Error()
	case m.Version != Version:
		return false, fmt.Sprintf("written by version %s", m.Version)
	case m.InputSHA256 != inputSHA:
		return false, "another input"
	case m.ConfigSHA256 != configSHA:
		return false, "other settings"
	case listsDistances(m.Files) != distances:
		return false, distancesProblem(distances)
	}
	problems := make([]string, len(m.Files))
	parallel.For(len(m.Files), runtime.GOMAXPROCS(0), func(i int) {
		problems[i] = outputFileProblem(dir, m.Files[i])
	})
	for _, p := range problems {
		if p != "" {
			return false, p
		}
	}
	return true, ""
}

// outputFileProblem says how the file f lists in dir differs from it, ""
// when it does not.
func outputFileProblem(dir string, f ManifestFile) string {
	path := filepath.Join(dir, filepath.FromSlash(f.Path))
	file, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer file.Close()
	st, err := file.Stat()
	switch {
	case err != nil:
		return err.Error()
	case st.Size() != f.Bytes:
		return fmt.Sprintf("%s: %d bytes, the manifest lists %d", path, st.Size(), f.Bytes)
	}
	sum, err := sha256Of(file)
	switch {
	case err != nil:
		return fmt.Sprintf("%s: %v", path, err)
	case sum != f.SHA256:
		return fmt.Sprintf("%s: SHA-256 %s, the manifest lists %s: changed since the run", path, sum, f.SHA256)
	}
	return ""
}

// listsDistances reports whether files hold a distances table (part files
// or the matrix). output.distances chooses it and stays out of the
// settings checksum, since it changes no byte of the other tables, so
// whether an earlier run is current depends on it as well.
func listsDistances(files []ManifestFile) bool {
	for _, f := range files {
		if strings.HasPrefix(f.Path, DistancesDir+"/") || f.Path == MatrixName {
			return true
		}
	}
	return false
}

// distancesProblem says why an output whose distances table is not as
// output.distances asks is not current.
func distancesProblem(distances bool) string {
	if distances {
		return "written without distances, " + KeyDistances + ": false"
	}
	return "written with distances, " + KeyDistances + ": true"
}
