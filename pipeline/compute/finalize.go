package compute

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// Finalize completes a sharded dataset: it checks that all cfg.Shard.Count
// shards in cfg.OutDir are complete and consistent (same input, settings,
// version and shard count as this config gives, every listed file in
// place, the tables every shard writes alike identical), then writes
// those tables (the vertices table, a table of places' points table) at
// the dataset's top, manifest.json and, last, _SUCCESS. Otherwise it returns an *IncompleteError listing the
// missing and stale shards. The graph is loaded for its checksum, as each
// task loaded it.
func Finalize(ctx context.Context, cfg *Config, log *slog.Logger, progressOut io.Writer) (*Result, error) {
	g, err := input.LoadGraph(ctx, cfg.Input, log, progressOut, cfg.Log.Quiet)
	if err != nil {
		return nil, err
	}
	count := cfg.Shard.Count
	shards := make([]*output.ShardManifest, count)
	var problems []string
	for i := range count {
		m, problem := shardState(cfg.OutDir, i, count, g.SHA256, cfg.ConfigSHA256, cfg.Distances)
		if problem != "" {
			problems = append(problems, output.ShardName(i)+" "+problem)
		}
		shards[i] = m
	}
	for _, stray := range strayPartitions(cfg.OutDir, count) {
		problems = append(problems, stray+" is beyond the "+fmt.Sprint(count)+" shards (left by an earlier run): remove it")
	}
	if len(problems) > 0 {
		return nil, &stageerr.IncompleteError{Dir: cfg.OutDir, Shards: count, Problems: problems}
	}
	if problems := sharedTablesProblems(shards); len(problems) > 0 {
		return nil, &stageerr.IncompleteError{Dir: cfg.OutDir, Shards: count, Problems: problems}
	}
	dm, shared := datasetManifest(shards)
	if err := writeDataset(cfg.OutDir, dm, shared, log); err != nil {
		return nil, &stageerr.OutputError{Err: err}
	}
	log.Info("finalized", "out", cfg.OutDir, "shards", count, "sources", dm.Sources, "files", len(dm.Files))
	return &Result{Manifest: &dm.Manifest}, nil
}

// datasetManifest merges the manifests of complete, consistent shards, and
// returns shard 0's shared tables (the same in every shard), if any.
func datasetManifest(shards []*output.ShardManifest) (*output.DatasetManifest, []output.ManifestFile) {
	first := shards[0].Manifest
	dm := &output.DatasetManifest{Shards: len(shards)}
	var shared []output.ManifestFile
	dm.Manifest = output.Manifest{
		Version: first.Version, InputFile: first.InputFile, InputSHA256: first.InputSHA256,
		ConfigSHA256: first.ConfigSHA256, N: first.N, M: first.M, StagesSeconds: map[string]float64{},
		// The dataset's run began with its first shard and ends with
		// this finalize, on this host; shard_runs say where each ran.
		StartedAt: first.StartedAt, FinishedAt: output.Stamp(time.Now()), Host: output.HostName(),
	}
	var backends, devices, algorithms, variants []string
	for _, s := range shards {
		run := output.ShardRun{Shard: s.Shard, Sources: s.Sources, Backend: s.Backend, Device: s.Device,
			Algorithm: s.Algorithm, PeakRSSBytes: s.PeakRSSBytes, Host: s.Host, StartedAt: s.StartedAt, FinishedAt: s.FinishedAt}
		if s.StartedAt != "" && (dm.StartedAt == "" || s.StartedAt < dm.StartedAt) {
			dm.StartedAt = s.StartedAt // fixed-width UTC stamps sort as text
		}
		for stage, sec := range s.StagesSeconds {
			dm.StagesSeconds[stage] += sec
			run.Seconds += sec
		}
		for _, f := range s.Files {
			switch {
			case !strings.HasPrefix(f.Path, output.ShardsDir+"/"):
				dm.Files = append(dm.Files, f)
				run.Rows += f.Rows
			case s.Shard == 0:
				shared = append(shared, f)
			}
		}
		dm.Sources += s.Sources
		dm.Reachable = append(dm.Reachable, s.Reachable...)
		dm.PeakRSSBytes = max(dm.PeakRSSBytes, s.PeakRSSBytes)
		backends, devices = appendNew(backends, s.Backend), appendNew(devices, s.Device)
		algorithms, variants = appendNew(algorithms, s.Algorithm), appendNew(variants, s.Variant)
		dm.ShardRuns = append(dm.ShardRuns, run)
	}
	if dm.Sources > 4096 || len(dm.Reachable) != dm.Sources {
		dm.Reachable = nil
	}
	dm.Backend, dm.Device = strings.Join(backends, ","), strings.Join(devices, ",")
	dm.Algorithm, dm.Variant = strings.Join(algorithms, ","), strings.Join(variants, ",")
	dm.Reason, dm.BackendReason = "finalize: merged from the shards' manifests", "see shard_runs"
	return dm, shared
}

// sharedTablesProblems compares the tables each shard keeps in its
// _shards folder (sharedTable) with shard 0's: the same names and bytes,
// since finalize keeps one for the whole dataset. Shards of one input,
// settings and version write them alike; a difference means one of them
// is not what the others are.
func sharedTablesProblems(shards []*output.ShardManifest) []string {
	sums := func(s *output.ShardManifest) map[string]string {
		m := map[string]string{}
		for _, f := range s.Files {
			if strings.HasPrefix(f.Path, output.ShardsDir+"/") {
				m[path.Base(f.Path)] = f.SHA256
			}
		}
		return m
	}
	first := sums(shards[0])
	var problems []string
	for _, s := range shards[1:] {
		if got := sums(s); !maps.Equal(got, first) {
			problems = append(problems, fmt.Sprintf("%s differs from %s in the tables every shard writes alike (%s): rerun it",
				output.ShardName(s.Shard), output.ShardName(0), strings.Join(slices.Sorted(maps.Keys(first)), ", ")))
		}
	}
	return problems
}

func appendNew(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// writeDataset writes the dataset's shared tables (shard 0's, identical
// in every shard), manifest.json and, last, _SUCCESS, each atomically,
// after removing what killed finalize runs left.
func writeDataset(root string, dm *output.DatasetManifest, shared []output.ManifestFile, log *slog.Logger) error {
	for _, name := range []string{output.ManifestName, output.SuccessName} {
		removed, err := atomicfile.RemoveStale(filepath.Join(root, name))
		for _, path := range removed {
			log.Warn("removed the temporary of an attempt whose process is gone", "path", path)
		}
		if err != nil {
			return err
		}
	}
	for _, f := range shared {
		top := filepath.Base(filepath.FromSlash(f.Path))
		if err := copyCommitted(filepath.Join(root, filepath.FromSlash(f.Path)), filepath.Join(root, top)); err != nil {
			return err
		}
		f.Path = top
		dm.Files = append(dm.Files, f)
	}
	if err := writeAtomic(filepath.Join(root, output.ManifestName), func(w io.Writer) error { return output.EncodeJSON(w, dm) }); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(root, output.SuccessName), func(io.Writer) error { return nil })
}

// writeAtomic writes path through a temporary renamed into place.
func writeAtomic(path string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
}

// copyCommitted copies the committed file src to dst atomically.
func copyCommitted(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return writeAtomic(dst, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}
