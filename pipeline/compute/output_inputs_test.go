package compute

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// snapshot returns every file under root with its bytes.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || e.Type()&fs.ModeSymlink != 0 {
			return err
		}
		b, err := os.ReadFile(path)
		files[path] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// runArgs loads a compute or ingest config from args, the way the
// commands do, and runs it.
func runArgs(t *testing.T, command string, args []string) error {
	t.Helper()
	if command == "ingest" {
		l, err := config.Load("ingest", ingest.Keys(), args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := ingest.ConfigFrom(l)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ingest.Run(context.Background(), cfg, stagetest.QuietLog, io.Discard)
		return err
	}
	l, err := config.Load("compute", Keys(), args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ConfigFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), cfg, stagetest.QuietLog, io.Discard)
	return err
}

// TestRunsRefuseAnOutputOverTheirInputs: an output folder that is, holds
// or lies inside anything the run reads is refused with exit 5 before any
// work, naming both paths and the input's key, and nothing read changes:
// without the check, compute -input IN -out IN replaced the ingest output
// it read, and output.overwrite: replace deleted whatever folder held an
// input.
func TestRunsRefuseAnOutputOverTheirInputs(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	gr := filepath.Join(data, "g.gr")
	if err := os.WriteFile(gr, []byte("p sp 3 3\na 1 2 4\na 2 3 5\na 3 1 6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	co := filepath.Join(data, "g.co")
	if err := os.WriteFile(co, []byte("p aux sp co 3\nv 1 0 0\nv 2 1 1\nv 3 2 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pairs := filepath.Join(data, "pairs.csv")
	if err := os.WriteFile(pairs, []byte("source,target\n0,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	yaml := filepath.Join(data, "run.yaml")
	if err := os.WriteFile(yaml, []byte("compute:\n  backend: cpu\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(root, "in")
	if err := runArgs(t, "ingest", []string{"-input", gr, "-out", in, "-hierarchy", "on"}); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	mirror := filepath.Join(root, "mirror")
	if err := os.Mkdir(mirror, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mirror, "rome99.gr"), []byte("p sp 2 1\na 1 2 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)

	cases := []struct {
		name, command string
		args          []string
		key, input    string // the key and path the message names
	}{
		{"compute into its input folder", "compute", []string{"-input", in, "-out", in}, input.KeyInputPath, in},
		{"compute into the folder of its edges table", "compute", []string{"-input", filepath.Join(in, "edges.parquet"), "-out", in}, input.KeyInputPath, in},
		{"compute into its input by a link", "compute", []string{"-input", in, "-out", link}, input.KeyInputPath, in},
		{"compute inside its input folder", "compute", []string{"-input", in, "-out", filepath.Join(in, "d")}, input.KeyInputPath, in},
		{"compute replacing the folder of its input", "compute", []string{"-input", in, "-out", root, "-overwrite", "replace"}, input.KeyInputPath, in},
		{"compute into its input file", "compute", []string{"-input", gr, "-out", gr}, input.KeyInputPath, gr},
		{"compute replacing the folder of its input file", "compute", []string{"-input", gr, "-out", data, "-overwrite", "replace"}, input.KeyInputPath, gr},
		{"compute replacing the folder of its coordinates", "compute", []string{"-input", in, "-coordinates", co, "-out", data, "-overwrite", "replace"}, input.KeyInputCoordinates, co},
		{"compute replacing the folder of its pair list", "compute", []string{"-input", in, "-pairs", pairs, "-out", data, "-overwrite", "replace"}, KeyPairList, pairs},
		{"compute replacing the folder of its config", "compute", []string{"-config", yaml, "-input", in, "-out", data, "-overwrite", "replace"}, "-config", yaml},
		{"compute replacing the mirror folder it reads", "compute", []string{"-dataset", "rome99", "-mirror", mirror, "-offline", "-out", mirror, "-overwrite", "replace"}, input.KeyInputDataset, filepath.Join(mirror, "rome99.gr")},
		{"a shard into its input folder", "compute", []string{"-input", in, "-out", in, "-shard", "0/2"}, input.KeyInputPath, in},
		{"finalize into its input folder", "compute", []string{"-input", in, "-out", in, "-finalize", "-shards", "2"}, input.KeyInputPath, in},
		{"ingest into its input folder", "ingest", []string{"-input", in, "-out", in, "-output-format", "arrow"}, input.KeyInputPath, in},
		{"ingest replacing the folder of its input file", "ingest", []string{"-input", gr, "-out", data, "-overwrite", "replace"}, input.KeyInputPath, gr},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := runArgs(t, c.command, c.args)
			if code := stageerr.KindOf(err); code != stageerr.Output {
				t.Fatalf("err = %v (kind %v), want kind %v", err, code, stageerr.Output)
			}
			msg := err.Error()
			var out string
			for i, a := range c.args {
				if a == "-out" {
					out = c.args[i+1]
				}
			}
			for _, want := range []string{output.KeyOutputDir, out, c.key, c.input} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q does not name %s", msg, want)
				}
			}
			after := snapshot(t, root)
			for path, b := range before {
				if after[path] != b {
					t.Errorf("%s changed or is gone", path)
				}
			}
			for path := range after {
				if _, ok := before[path]; !ok {
					t.Errorf("%s was written", path)
				}
			}
		})
	}
}

// TestOutputBesideItsInputIsAllowed: a sibling whose name starts with the
// input's is neither the input nor inside it.
func TestOutputBesideItsInputIsAllowed(t *testing.T) {
	root := t.TempDir()
	gr := filepath.Join(root, "g")
	if err := os.WriteFile(gr, []byte("p sp 2 1\na 1 2 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(root, "in")
	for _, args := range [][]string{
		{"-input", gr, "-out", in},
		{"-input", in, "-out", in + "-dist"},
		{"-input", in, "-out", filepath.Join(root, "g-dist")},
	} {
		command := "compute"
		if args[1] == gr {
			command = "ingest"
		}
		if err := runArgs(t, command, args); err != nil {
			t.Errorf("%s %v: %v", command, args, err)
		}
	}
}
