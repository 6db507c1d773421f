package compute

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/version"
	"github.com/pathflow/pathflow/pipeline/output"
)

// shardState checks shard i of count in the dataset at root against the
// input and settings checksums of this run and this version. It returns
// the shard's manifest and "" when the shard is complete and current, else
// a phrase saying what is wrong: missing (no marker), stale (another
// input, settings, version or shard count) or damaged (a file missing,
// changed or not in the manifest). O(size of the shard's files): each is
// hashed.
func shardState(root string, i, count int, inputSHA, configSHA string, distances bool) (*output.ShardManifest, string) {
	dir := output.ShardDir(root, i)
	if _, err := os.Stat(filepath.Join(dir, output.SuccessName)); err != nil {
		return nil, "missing (no " + filepath.ToSlash(filepath.Join(output.ShardsDir, output.ShardName(i), output.SuccessName)) + ")"
	}
	m, err := output.ReadShardManifest(dir)
	if err != nil {
		return nil, fmt.Sprintf("damaged (%v)", err)
	}
	switch {
	case m.Version != version.Version:
		return m, fmt.Sprintf("stale (written by version %s, this is %s)", m.Version, version.Version)
	case m.Shards != count || m.Shard != i:
		return m, fmt.Sprintf("stale (written as shard %d of %d, want %d of %d)", m.Shard, m.Shards, i, count)
	case m.InputSHA256 != inputSHA:
		return m, fmt.Sprintf("stale (input checksum %s, this input's is %s)", short(m.InputSHA256), short(inputSHA))
	case m.ConfigSHA256 != configSHA:
		return m, fmt.Sprintf("stale (settings checksum %s, this config's is %s)", short(m.ConfigSHA256), short(configSHA))
	case listsDistances(m.Files) != distances:
		return m, "stale (" + distancesProblem(distances) + ")"
	}
	if problem := shardFilesProblem(root, output.ShardName(i), m); problem != "" {
		return m, "damaged (" + problem + ")"
	}
	return m, ""
}

// shardFilesProblem checks that every file the manifest lists is there
// with its size and SHA-256, so that a shard damaged in place is not taken
// for a complete one, and that the shard's partitions hold no other file.
// The files are hashed a goroutine each, up to one per core, as for an
// unsharded output (upToDate).
func shardFilesProblem(root, name string, m *output.ShardManifest) string {
	listed := map[string]bool{}
	for _, f := range m.Files {
		listed[f.Path] = true
	}
	problems := make([]string, len(m.Files))
	parallel.For(len(m.Files), runtime.GOMAXPROCS(0), func(i int) {
		problems[i] = shardFileProblem(root, m.Files[i])
	})
	for _, p := range problems {
		if p != "" {
			return p
		}
	}
	tables, err := datasetTables(root)
	if err != nil {
		return err.Error()
	}
	for _, table := range tables {
		entries, _ := os.ReadDir(filepath.Join(root, table, name))
		for _, e := range entries {
			if rel := table + "/" + name + "/" + e.Name(); !listed[rel] {
				return rel + " is not in the shard's manifest"
			}
		}
	}
	return ""
}

// shardFileProblem says how the file f lists in the dataset at root
// differs from it, "" when it does not.
func shardFileProblem(root string, f output.ManifestFile) string {
	err := output.CheckListed(filepath.Join(root, filepath.FromSlash(f.Path)), f)
	var notOpened *output.NotOpenedError
	var size *output.SizeMismatchError
	var sum *output.SHA256MismatchError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &notOpened):
		return f.Path + " is missing"
	case errors.As(err, &size):
		return fmt.Sprintf("%s has %d bytes, its manifest says %d", f.Path, size.Bytes, f.Bytes)
	case errors.As(err, &sum):
		return fmt.Sprintf("%s has SHA-256 %s, its manifest says %s: changed since the run", f.Path, sum.SHA256, f.SHA256)
	}
	return err.Error()
}

// strayPartitions lists the partitions and shard folders of indexes >= count,
// left by a run with more shards.
func strayPartitions(root string, count int) []string {
	tables, _ := datasetTables(root)
	var stray []string
	for _, folder := range append(tables, output.ShardsDir) {
		entries, _ := os.ReadDir(filepath.Join(root, folder))
		for _, e := range entries {
			digits, ok := strings.CutPrefix(e.Name(), "shard=")
			if i, err := strconv.Atoi(digits); ok && err == nil && i >= count {
				stray = append(stray, folder+"/"+e.Name())
			}
		}
	}
	slices.Sort(stray)
	return stray
}

// short abbreviates a checksum for messages.
func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	return sum
}
