package compute

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/planner"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// startComputeOutput checks, before the run does any work, the folder it
// will write and records what is committed there: for an unsharded run
// output.dir itself, which it replaces at commit (only an output pathflow
// committed, unless output.overwrite says replace: output.OwnerCheck); for a
// shard the dataset folder it adds partitions to, and the shard's marker
// folder, which shows another attempt's commit.
func startComputeOutput(cfg *Config) (*output.Pending, error) {
	root := filepath.Clean(cfg.OutDir)
	if !cfg.Shard.Sharded() {
		if err := shardedDatasetCheck(root); err != nil {
			return nil, err
		}
		return output.Begin(root, cfg.Overwrite)
	}
	if err := datasetFolderCheck(root); err != nil {
		return nil, err
	}
	if err := output.DatasetOwnerCheck(root, cfg.Overwrite); err != nil {
		return nil, err
	}
	seen, err := output.ReadIdentity(output.ShardDir(root, cfg.Shard.Index))
	if err != nil {
		return nil, &stageerr.OutputError{Err: err}
	}
	return output.BeginShared(filepath.Join(root, cfg.Shard.Name()), cfg.Overwrite, seen), nil
}

// openOutput opens the temporary folder the run writes into: beside
// output.dir for an unsharded run, inside it (".shard=NNNN.tmp-...") for a
// shard, whose partitions are moved into the dataset at commit. What
// killed earlier attempts left there is removed first.
func openOutput(cfg *Config, start *output.Pending, log *slog.Logger) (*output.Owned, error) {
	if !cfg.Shard.Sharded() {
		return start.Open(log)
	}
	return start.OpenShared(log)
}

// commitOutput writes the manifest and commits the run's folder: one
// swap for an unsharded run, the shard's partitions for a shard. A signal
// (ctx) ends the wait for the commit lock.
func commitOutput(ctx context.Context, cfg *Config, out *output.Owned, m *output.Manifest, log *slog.Logger) error {
	m.RunID = out.RunID
	if cfg.Shard.Sharded() {
		return commitShard(ctx, cfg, out, m, log)
	}
	return out.Commit(ctx, func(dir string) error { return output.WriteManifest(dir, m) })
}

// currentOutput returns the manifest of the output already in place when
// nothing needs doing: a shard that is complete with the same input,
// settings and version (always: a retried task must not redo a committed
// shard), or an unsharded output under skip_if_unchanged.
func currentOutput(cfg *Config, inputSHA string, log *slog.Logger) (*output.Manifest, bool) {
	if cfg.Shard.Sharded() {
		m, problem := shardState(cfg.OutDir, cfg.Shard.Index, cfg.Shard.Count, inputSHA, cfg.ConfigSHA256, cfg.Distances)
		if problem != "" {
			return nil, false
		}
		log.Info("shard is complete with the same input, settings and version; nothing to do",
			"out", cfg.OutDir, "shard", cfg.Shard.Name())
		return &m.Manifest, true
	}
	if !cfg.SkipIfSame {
		return nil, false
	}
	m, why := upToDateManifest(cfg.OutDir, inputSHA, cfg.ConfigSHA256, cfg.Distances)
	if m == nil {
		log.Info("outputs are not up to date; computing", "out", cfg.OutDir, "key", KeySkipIfUnchanged, "why", why)
		return nil, false
	}
	log.Info("outputs are up to date; nothing to do", "out", cfg.OutDir, "key", KeySkipIfUnchanged)
	return m, true
}

// shardPlanConfig is cfg with compute.algorithm adapted for one shard of
// a split all-pairs run (planner.ShardAlgorithm): cfg itself when nothing
// changes. The weights are read only when the settings leave the choice to
// them.
func shardPlanConfig(cfg *Config, e *graph.EdgeList) *Config {
	minWeight := func() int32 {
		lo, _ := e.WeightRange()
		return lo
	}
	algorithm := planner.ShardAlgorithm(cfg.Algorithm, cfg.Shard.Split(), sourcesKeyAll(cfg.Sources), minWeight)
	if algorithm == cfg.Algorithm {
		return cfg
	}
	adapted := *cfg
	adapted.Algorithm = algorithm
	return &adapted
}

// sourcesKeyAll reports whether compute.sources asks for every vertex.
func sourcesKeyAll(sources []string) bool {
	return len(sources) == 1 && strings.TrimSpace(sources[0]) == "all"
}

// shardLockWait bounds how long a shard's commit waits for another
// attempt of the same index to finish its own.
const shardLockWait = 10 * time.Minute

// commitShard reshapes the run's folder into the dataset's partitions
// (distances/shard=NNNN/part-*, summary/shard=NNNN/part-00000, ...),
// writes the shard's manifest and marker, and moves the partitions into
// the dataset, the marker's folder last. The dataset's own _SUCCESS and
// this shard's old marker are removed first: the dataset is not complete
// again until finalize. When another attempt of this index committed
// while this one ran, this one commits nothing: that is no error when the
// other's shard is current (the same input, settings and version give the
// same bytes), and a *SupersededError otherwise.
func commitShard(ctx context.Context, cfg *Config, owned *output.Owned, m *output.Manifest, log *slog.Logger) error {
	out := owned.Dir
	root, name := out.Path(), cfg.Shard.Name()
	parts, files, err := partitionFiles(out, m.Files, name)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	sm := &output.ShardManifest{Manifest: *m, Shard: cfg.Shard.Index, Shards: cfg.Shard.Count}
	sm.Files = files
	marker := filepath.Join(output.ShardsDir, name)
	if err := writeShardMarker(out, filepath.Join(root, marker), sm); err != nil {
		return &stageerr.OutputError{Err: err}
	}
	// Two attempts of one index (Kubernetes may run both) move their
	// partitions one after the other, never interleaved.
	release, err := atomicfile.Lock(ctx, filepath.Join(cfg.OutDir, "."+name+".lock"), shardLockWait, log)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	defer release()
	now, err := output.ReadIdentity(output.ShardDir(cfg.OutDir, cfg.Shard.Index))
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	if now != owned.Seen() {
		out.Abort()
		if _, problem := shardState(cfg.OutDir, cfg.Shard.Index, cfg.Shard.Count, m.InputSHA256, cfg.ConfigSHA256, cfg.Distances); problem == "" {
			log.Info("another attempt committed this shard with the same input, settings and version while this one ran; keeping it",
				"out", cfg.OutDir, "shard", name, "run_id", now.RunID)
			return nil
		}
		return &stageerr.SupersededError{Dir: filepath.Join(cfg.OutDir, marker), RunID: owned.RunID, Now: now.RunID}
	}
	for _, stale := range []string{filepath.Join(cfg.OutDir, output.SuccessName), filepath.Join(cfg.OutDir, marker, output.SuccessName)} {
		if err := os.Remove(stale); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return &stageerr.OutputError{Err: err}
		}
	}
	if err := removeOtherPartitions(cfg.OutDir, name, parts); err != nil {
		return &stageerr.OutputError{Err: err}
	}
	if err := out.CommitInto(cfg.OutDir, append(parts, marker)...); err != nil {
		return &stageerr.OutputError{Err: err}
	}
	return nil
}

// partitionFiles moves the files of an unsharded layout inside out into
// shard name's partitions and returns the partition folders made and the
// files' new paths (relative to the dataset): a folder X becomes
// X/shard=NNNN, a table X.ext becomes X/shard=NNNN/part-00000.ext, and the
// tables the same in every shard (sharedTable) go to the shard's _shards
// folder, from which finalize takes one.
func partitionFiles(out *atomicfile.Dir, files []output.ManifestFile, name string) (parts []string, moved []output.ManifestFile, err error) {
	root := out.Path()
	done := map[string]bool{}
	for _, f := range files {
		top, rest, inFolder := strings.Cut(f.Path, "/")
		base, ext, _ := strings.Cut(top, ".")
		var from, to string
		switch {
		case inFolder:
			from, to = top, top+"/"+name
			f.Path = to + "/" + rest
		case sharedTable(base):
			from, to = top, output.ShardsDir+"/"+name+"/"+top
			f.Path = to
		default:
			from, to = top, base+"/"+name+"/part-00000."+ext
			f.Path = to
		}
		moved = append(moved, f)
		if done[from] {
			continue
		}
		done[from] = true
		if err := movePartition(out, root, from, to, inFolder); err != nil {
			return nil, nil, err
		}
		if !strings.HasPrefix(to, output.ShardsDir+"/") {
			parts = append(parts, filepath.FromSlash(base+"/"+name))
		}
	}
	return parts, moved, nil
}

// sharedTable reports whether the table named base is the same in every
// shard of a dataset: the vertices table, which depends on the graph
// alone, and the points table of places, which lists every place however
// the origins or trips are divided.
func sharedTable(base string) bool {
	return base == output.VerticesName || base == PointsName
}

// movePartition moves from to to inside out. A folder goes by way of a
// hidden name, since its new place is inside its old one.
func movePartition(out *atomicfile.Dir, root, from, to string, folder bool) error {
	src, dst := filepath.Join(root, from), filepath.Join(root, filepath.FromSlash(to))
	if !folder {
		return out.Move(src, dst)
	}
	hidden := filepath.Join(root, "."+from)
	if err := out.Move(src, hidden); err != nil {
		return err
	}
	return out.Move(hidden, dst)
}

// writeShardMarker writes the shard's manifest and its _SUCCESS marker
// into dir, inside the uncommitted folder.
func writeShardMarker(out *atomicfile.Dir, dir string, sm *output.ShardManifest) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := out.Create(filepath.Join(dir, output.ManifestName))
	if err != nil {
		return err
	}
	err = output.EncodeJSON(f, sm)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing the manifest of %s: %w", dir, err)
	}
	marker, err := out.Create(filepath.Join(dir, output.SuccessName))
	if err != nil {
		return err
	}
	return marker.Close()
}

// removeOtherPartitions removes shard name's partitions of tables this
// attempt does not write (left by a run with other settings), so the
// dataset holds only what the new manifest lists.
func removeOtherPartitions(root, name string, parts []string) error {
	tables, err := datasetTables(root)
	if err != nil {
		return err
	}
	for _, table := range tables {
		part := filepath.Join(table, name)
		if slices.Contains(parts, part) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(root, part)); err != nil {
			return err
		}
	}
	return nil
}

// datasetTables lists the table folders of a dataset: every folder whose
// name starts with neither '_' nor '.'.
func datasetTables(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), "_") && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out, nil
}
