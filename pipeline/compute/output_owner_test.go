package compute

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// hashTree returns every entry under dir: a file's checksum, "dir" for a
// folder.
func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if e.IsDir() {
			sums[rel] = "dir"
			return nil
		}
		b, err := os.ReadFile(path)
		sum := sha256.Sum256(b)
		sums[rel] = hex.EncodeToString(sum[:])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

// userFolder makes a folder of a user's own files: the one a mistyped
// -out would name.
func userFolder(t *testing.T, dir string) map[string]string {
	t.Helper()
	for name, text := range map[string]string{"important.txt": "do not lose me\n", "sub/notes.md": "# notes\n"} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return hashTree(t, dir)
}

// stage is compute or ingest into out, with extra flags.
type stage struct {
	name string
	run  func(t *testing.T, out string, extra ...string) error
}

var stages = []stage{
	{"compute", func(t *testing.T, out string, extra ...string) error {
		args := append([]string{"-generate", "grid:side=6,seed=5", "-backend", "cpu", "-sources", "0,7", "-out", out}, extra...)
		_, err := Run(context.Background(), loadCompute(t, "", args...), stagetest.QuietLog, io.Discard)
		return err
	}},
	{"ingest", func(t *testing.T, out string, extra ...string) error {
		args := append([]string{"-generate", "grid:side=6,seed=5", "-out", out}, extra...)
		_, err := ingest.Run(context.Background(), loadIngest(t, args...), stagetest.QuietLog, io.Discard)
		return err
	}},
}

// TestForeignFolderSurvives: -out naming a folder of the user's files is
// refused with the output exit code, the message names the folder and its
// first entry, and not a byte under it changes; nothing is left beside it.
func TestForeignFolderSurvives(t *testing.T) {
	for _, st := range stages {
		t.Run(st.name, func(t *testing.T) {
			parent := t.TempDir()
			out := filepath.Join(parent, "data")
			before := userFolder(t, out)
			err := st.run(t, out)
			if stageerr.KindOf(err) != stageerr.Output || !strings.Contains(err.Error(), out) || !strings.Contains(err.Error(), "important.txt") {
				t.Fatalf("err = %v (kind %v), want kind %v naming %s and important.txt", err, stageerr.KindOf(err), stageerr.Output, out)
			}
			if after := hashTree(t, out); !maps.Equal(before, after) {
				t.Errorf("the user's folder changed:\nbefore %v\nafter  %v", before, after)
			}
			if got := stagetest.Names(t, parent); !slices.Equal(got, []string{"data"}) {
				t.Errorf("the parent holds %v, want only the user's folder", got)
			}
		})
	}
}

// TestForeignEntryBesidePathflowOutput: a committed output with a file of
// the user's added (at the top or inside a table folder) is no longer
// pathflow's alone: the rerun is refused naming that file, and the folder
// stays as it was.
func TestForeignEntryBesidePathflowOutput(t *testing.T) {
	for _, st := range stages {
		for _, foreign := range []string{"zz-mine.csv", "a-first.txt"} {
			t.Run(st.name+"/"+foreign, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out")
				if err := st.run(t, out); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(out, foreign), []byte("mine"), 0o644); err != nil {
					t.Fatal(err)
				}
				before := hashTree(t, out)
				err := st.run(t, out)
				if stageerr.KindOf(err) != stageerr.Output || !strings.Contains(err.Error(), foreign) {
					t.Fatalf("err = %v (kind %v), want kind %v naming %s", err, stageerr.KindOf(err), stageerr.Output, foreign)
				}
				if after := hashTree(t, out); !maps.Equal(before, after) {
					t.Errorf("the folder changed:\nbefore %v\nafter  %v", before, after)
				}
			})
		}
	}
	t.Run("compute/inside distances", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		run := stages[0].run
		if err := run(t, out); err != nil {
			t.Fatal(err)
		}
		mine := filepath.Join(out, output.DistancesDir, "my-notes.txt")
		if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		err := run(t, out)
		if stageerr.KindOf(err) != stageerr.Output || !strings.Contains(err.Error(), output.DistancesDir+"/my-notes.txt") {
			t.Fatalf("err = %v (kind %v), want kind %v naming %s/my-notes.txt", err, stageerr.KindOf(err), stageerr.Output, output.DistancesDir)
		}
		if _, err := os.Stat(mine); err != nil {
			t.Errorf("the user's file is gone: %v", err)
		}
	})
}

// TestOutputIntoEmptyOrOwnFolder: a missing folder is made, an empty one
// (made by the user for the run) is filled, and pathflow's own output is
// replaced by a rerun, whose manifest then lists exactly what is there.
func TestOutputIntoEmptyOrOwnFolder(t *testing.T) {
	for _, st := range stages {
		t.Run(st.name, func(t *testing.T) {
			parent := t.TempDir()
			out := filepath.Join(parent, "made", "out")
			if err := st.run(t, out); err != nil {
				t.Fatalf("into a missing folder: %v", err)
			}
			first, _ := output.ReadIdentity(out)
			if err := st.run(t, out); err != nil {
				t.Fatalf("rerun into its own output: %v", err)
			}
			second, _ := output.ReadIdentity(out)
			if first.RunID == "" || second.RunID == first.RunID {
				t.Errorf("run ids %q then %q: the rerun did not replace the output", first.RunID, second.RunID)
			}
			if err := output.OwnerCheck(out, output.OverwritePathflow); err != nil {
				t.Errorf("the committed output is not recognised as pathflow's: %v", err)
			}
			if got := stagetest.Names(t, filepath.Join(parent, "made")); !slices.Equal(got, []string{"out"}) {
				t.Errorf("beside the output: %v, want nothing else (no temporary, no lock)", got)
			}

			empty := filepath.Join(parent, "empty")
			if err := os.Mkdir(empty, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := st.run(t, empty); err != nil {
				t.Fatalf("into an empty folder: %v", err)
			}
			if _, err := os.Stat(filepath.Join(empty, output.ManifestName)); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestOverwriteReplace: output.overwrite: replace replaces a folder of
// foreign files, which are then gone.
func TestOverwriteReplace(t *testing.T) {
	for _, st := range stages {
		t.Run(st.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "data")
			userFolder(t, out)
			if err := st.run(t, out, "-overwrite", output.OverwriteReplace); err != nil {
				t.Fatal(err)
			}
			for _, gone := range []string{"important.txt", "sub"} {
				if _, err := os.Stat(filepath.Join(out, gone)); err == nil {
					t.Errorf("%s is still there after a replace", gone)
				}
			}
			if err := output.OwnerCheck(out, output.OverwritePathflow); err != nil {
				t.Errorf("the folder is not pathflow's output after a replace: %v", err)
			}
		})
	}
}

// TestShardRefusesForeignFolder: a sharded run adds partitions only to a
// dataset folder: a folder of the user's files is refused and unchanged,
// while the shards of one dataset still commit side by side.
func TestShardRefusesForeignFolder(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "data")
	before := userFolder(t, out)
	_, err := Run(context.Background(), loadCompute(t, "", "-generate", "grid:side=5", "-sources", "all", "-shard", "0/2", "-out", out), stagetest.QuietLog, io.Discard)
	if stageerr.KindOf(err) != stageerr.Output || !strings.Contains(err.Error(), "important.txt") {
		t.Fatalf("err = %v (kind %v), want kind %v naming important.txt", err, stageerr.KindOf(err), stageerr.Output)
	}
	if after := hashTree(t, out); !maps.Equal(before, after) {
		t.Errorf("the user's folder changed:\nbefore %v\nafter  %v", before, after)
	}

	dataset := filepath.Join(parent, "dataset")
	for _, shard := range []string{"0/2", "1/2"} {
		if _, err := Run(context.Background(), loadCompute(t, "", "-generate", "grid:side=5", "-sources", "all", "-shard", shard, "-out", dataset), stagetest.QuietLog, io.Discard); err != nil {
			t.Fatalf("shard %s: %v", shard, err)
		}
	}
	if _, err := Run(context.Background(), loadCompute(t, "", "-generate", "grid:side=5", "-sources", "all", "-shards", "2", "-finalize", "-out", dataset), stagetest.QuietLog, io.Discard); err != nil {
		t.Fatalf("finalize: %v", err)
	}
	if err := output.DatasetOwnerCheck(dataset, output.OverwritePathflow); err != nil {
		t.Errorf("a finalized dataset is not recognised: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dataset, "mine.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := output.DatasetOwnerCheck(dataset, output.OverwritePathflow); err == nil || !strings.Contains(err.Error(), "mine.txt") {
		t.Errorf("a dataset with mine.txt beside it: err = %v, want a refusal naming it", err)
	}
}
