package output

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// KeyOutputOverwrite says what compute and ingest may replace at
// output.dir.
const KeyOutputOverwrite = "output.overwrite"

// Values of output.overwrite.
const (
	// OverwritePathflow, the default, replaces only what a pathflow run
	// committed (a folder whose manifest.json lists every file in it) or
	// an empty folder, and refuses anything else: a user's folder given as
	// output.dir is never deleted.
	OverwritePathflow = "pathflow"
	// OverwriteReplace replaces whatever folder is at output.dir, deleting
	// every file in it.
	OverwriteReplace = "replace"
)

// OverwriteKey declares output.overwrite for compute and ingest.
func OverwriteKey() config.Key {
	return config.Key{Name: KeyOutputOverwrite, Default: OverwritePathflow, Flag: "overwrite",
		Usage: "pathflow: replace only an empty folder or an output a pathflow run committed, refuse others (exit 5); replace: replace any folder, DELETING every file in it"}
}

// ReadOverwrite reads and validates output.overwrite.
func ReadOverwrite(vs *config.Values) string {
	return vs.OneOf(KeyOutputOverwrite, OverwritePathflow, OverwriteReplace)
}

// OwnerCheck refuses an output folder that a run would replace (compute
// unsharded, ingest) but that holds a file no pathflow run wrote: dir may
// be missing, empty, or a committed output whose manifest lists every file
// under it. The first foreign entry, in lexical order, is named. With
// OverwriteReplace anything goes.
func OwnerCheck(dir, overwrite string) error {
	if overwrite == OverwriteReplace {
		return nil
	}
	info, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return &stageerr.OutputError{Err: err}
	case !info.IsDir():
		return &stageerr.OutputError{Err: fmt.Errorf("%s exists and is not a folder: set another %s", dir, KeyOutputDir)}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	if len(entries) == 0 {
		return nil // nothing to lose: a folder made for this run
	}
	listed, ok := committedFiles(dir)
	if !ok {
		return foreignError(dir, entries[0].Name(), "no pathflow "+ManifestName+" is there")
	}
	var foreign string
	err = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if !e.IsDir() && !listed[filepath.ToSlash(rel)] {
			foreign = filepath.ToSlash(rel)
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	if foreign != "" {
		return foreignError(dir, foreign, "its "+ManifestName+" does not list it")
	}
	return nil
}

// committedFiles reads dir's manifest and returns the files it lists, the
// manifest included, if it is a pathflow manifest: a JSON object with the
// version, input checksum and file list that every compute and ingest
// manifest has.
func committedFiles(dir string) (map[string]bool, bool) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return nil, false
	}
	var m struct {
		Version string         `json:"version"`
		Files   []ManifestFile `json:"files"`
	}
	_, hasInput := fields["input_sha256"]
	_, hasFiles := fields["files"]
	if !hasInput || !hasFiles || json.Unmarshal(b, &m) != nil || m.Version == "" {
		return nil, false
	}
	listed := map[string]bool{ManifestName: true}
	for _, f := range m.Files {
		listed[f.Path] = true
	}
	return listed, true
}

// foreignError is the refusal of a folder holding entry, a file pathflow
// did not write.
func foreignError(dir, entry, why string) error {
	return &stageerr.OutputError{Err: fmt.Errorf("%s holds %s, which pathflow did not write (%s): pathflow replaces only an empty folder or an output it committed; set another %s, or set %s: %s to delete what is there",
		dir, entry, why, KeyOutputDir, KeyOutputOverwrite, OverwriteReplace)}
}

// DatasetOwnerCheck refuses to add shards to a folder that holds entries
// a sharded run did not write: a dataset folder may be missing or empty,
// or hold only the dataset's names (table folders of shard=NNNN
// partitions, _shards, the finalize outputs) and pathflow's hidden
// temporaries and locks. Shards never replace the folder as a whole, but
// a foreign folder is no dataset, and one shard's rewrite removes that
// shard's partitions in every table folder. OverwriteReplace skips the
// check.
func DatasetOwnerCheck(root, overwrite string) error {
	if overwrite == OverwriteReplace {
		return nil
	}
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case isPathflowHidden(name):
		case name == ShardsDir || name == ManifestName || name == SuccessName:
		case name == VerticesName+".parquet" || name == VerticesName+".arrow":
		case e.IsDir() && (name == DistancesDir || name == PathsName || name == SummaryName):
			if foreign := nonPartition(filepath.Join(root, name)); foreign != "" {
				return foreignError(root, name+"/"+foreign, "not a shard's partition")
			}
		default:
			return foreignError(root, name, "not part of a sharded dataset")
		}
	}
	return nil
}

// nonPartition returns the first entry of a dataset's table folder that is
// neither a shard=NNNN partition nor a pathflow temporary, or "".
func nonPartition(table string) string {
	entries, _ := os.ReadDir(table)
	for _, e := range entries {
		if !isPathflowHidden(e.Name()) && !(e.IsDir() && strings.HasPrefix(e.Name(), "shard=")) {
			return e.Name()
		}
	}
	return ""
}

// isPathflowHidden reports whether name is a hidden entry pathflow makes
// inside a dataset: an atomicfile temporary or a shard's commit lock.
func isPathflowHidden(name string) bool {
	if atomicfile.IsTemporary(name) {
		return true
	}
	shard, ok := strings.CutSuffix(name, ".lock")
	return ok && strings.HasPrefix(shard, ".shard=")
}
