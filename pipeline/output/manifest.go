package output

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/pathflow/pathflow/internal/atomicfile"
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
	// and open it, as long as the run waited for it), csr (build the compressed sparse rows; near zero when
	// the input's reload file held them), compute (the backend's run, during which the writers
	// encode), write_tail (the writers finishing after the run), extras
	// (paths and summary tables). backend_warm, when present, is the time
	// the GPU took to start on a goroutine of its own beside the load: it
	// overlaps the other stages rather than adding to them.
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

// ManifestFiles converts table file infos to paths relative to root.
func ManifestFiles(root string, infos []tables.FileInfo) []ManifestFile {
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
	// Road says how an OpenStreetMap extract became the network; absent
	// for other inputs.
	Road *RoadManifest `json:"road,omitempty"`
}

// RoadManifest records how an OpenStreetMap extract became a road
// network: the profile, the weight and what was kept.
type RoadManifest struct {
	// Profile names the routing profile; ProfileDigest identifies its
	// exact content ("sha256:..."), so an edited profile is told apart.
	Profile       string `json:"profile"`
	ProfileDigest string `json:"profile_digest"`
	// Weight is the metric of the edges table's weight column (time or
	// length) and WeightUnit its unit (ms or m).
	Weight     string `json:"weight"`
	WeightUnit string `json:"weight_unit"`
	// Ways counts the ways the profile allowed, WayNodes the distinct
	// nodes they use and MissingNodes those the extract lacks (roads cut
	// at its border).
	Ways         int64 `json:"ways"`
	WayNodes     int64 `json:"way_nodes"`
	MissingNodes int64 `json:"missing_nodes"`
	// Barriers counts the barrier nodes on routable ways and
	// BlockingBarriers those the profile may not pass.
	Barriers         int64 `json:"barriers"`
	BlockingBarriers int64 `json:"blocking_barriers"`
	// Components is the number of strongly connected components of the
	// network as read, LargestComponents the vertex counts of the largest
	// (at most ten), DroppedVertices the vertices input.osm.components:
	// largest removed.
	Components        int64   `json:"components"`
	LargestComponents []int64 `json:"largest_components"`
	DroppedVertices   int64   `json:"dropped_vertices"`
}

// stampLayout is RFC 3339 in UTC with milliseconds, fixed width, so that
// stamps sort as text: "2026-01-02T15:04:05.000Z".
const stampLayout = "2006-01-02T15:04:05.000Z07:00"

// Stamp renders t for a manifest's started_at and finished_at.
func Stamp(t time.Time) string { return t.UTC().Format(stampLayout) }

// HostName is the machine's name for a manifest, "" when the system will
// not tell.
func HostName() string {
	name, err := os.Hostname()
	if err != nil {
		return ""
	}
	return name
}

// WriteManifest writes m as indented JSON into dir, atomically.
func WriteManifest(dir string, m *Manifest) error {
	return WriteJSON(filepath.Join(dir, ManifestName), m)
}

// WriteJSON writes v as indented JSON to path, atomically.
func WriteJSON(path string, v any) error {
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

// HierarchyManifest is what an ingest manifest records of the hierarchy:
// whether one was stored and why, its files and the checksum of the graph
// it belongs to.
type HierarchyManifest struct {
	// Setting is ingest.hierarchy as configured.
	Setting string `json:"setting"`
	// Stored is true when the folder holds a hierarchy.
	Stored bool `json:"stored"`
	// Reason says why one was stored or not.
	Reason string `json:"reason"`
	// Files are the hierarchy's files, relative to the folder (they are
	// listed with the others under files too): HierarchyName, and the
	// three tables unless ingest.hierarchy_tables is false.
	Files []string `json:"files,omitempty"`
	// GraphChecksum is the graph.EdgeList.Checksum of the graph it was
	// built from, which compute compares with the graph it loads.
	GraphChecksum string `json:"graph_checksum,omitempty"`
	// Coordinates is true when the layout followed the vertices'
	// coordinates (a Z curve per level).
	Coordinates bool `json:"coordinates,omitempty"`
	// Metric names the metric the hierarchy's arcs carry beside the
	// weight (a road network's length or time), "" for none.
	Metric string `json:"metric,omitempty"`
	// BuildSeconds times the graph's checksum and the build on every
	// core; WriteSeconds the write of its files.
	BuildSeconds float64 `json:"build_s,omitempty"`
	WriteSeconds float64 `json:"write_s,omitempty"`
	// Shortcuts, Rounds, UpArcs and DownArcs describe the hierarchy: the
	// arcs it added, its rounds of contraction and its arcs each way.
	Shortcuts int `json:"shortcuts,omitempty"`
	Rounds    int `json:"rounds,omitempty"`
	UpArcs    int `json:"up_arcs,omitempty"`
	DownArcs  int `json:"down_arcs,omitempty"`
}

// HierarchyName is the mapped file of a stored hierarchy (package chfile),
// which compute maps and queries as it lies.
const HierarchyName = "hierarchy.chf"

// SHA256Of returns the lowercase hex SHA-256 of what r holds.
func SHA256Of(r io.Reader) (string, error) {
	digest := sha256.New()
	if _, err := io.CopyBuffer(digest, r, make([]byte, 256<<10)); err != nil {
		return "", err
	}
	return hex.EncodeToString(digest.Sum(nil)), nil
}
