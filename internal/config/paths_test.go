package config

import (
	"os"
	"path/filepath"
	"testing"
)

var pathKeys = []Key{
	{Name: "input.path", Default: "", Path: true, Flag: "input", Usage: "input"},
	{Name: "input.coordinates", Default: "", Path: true, Flag: "coordinates", Usage: "coordinates"},
	{Name: "output.dir", Default: "", Path: true, Flag: "out", Usage: "output folder"},
	{Name: "compute.variant", Default: "", Flag: "variant", Usage: "not a path"},
}

// TestRelativePathsInAFileAreResolvedAgainstItsFolder: a config file's
// relative paths are the file's folder's, wherever the command runs; an
// absolute one, an empty one and a key that is not a path stay as
// written; a flag's or a variable's relative path is the working
// directory's.
func TestRelativePathsInAFileAreResolvedAgainstItsFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "jobs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(t.TempDir(), "graph.gr")
	file := filepath.Join(dir, "job.yaml")
	text := "input:\n  path: ../data/g.gr\n  coordinates: " + abs + "\ncompute:\n  variant: ../not/a/path\noutput:\n  dir: \"\"\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // as cron starts a job in $HOME
	for _, tc := range []struct {
		name string
		args []string
		env  []string
		want map[string]string
	}{
		{"file", []string{"-config", file}, nil, map[string]string{
			"input.path":        filepath.Join(filepath.Dir(dir), "data", "g.gr"),
			"input.coordinates": abs,
			"compute.variant":   "../not/a/path",
			"output.dir":        "",
		}},
		{"relative config path", []string{"-config", filepath.Join(dir, "..", "jobs", "job.yaml")}, nil, map[string]string{
			"input.path": filepath.Join(filepath.Dir(dir), "data", "g.gr"),
		}},
		{"flag and variable", []string{"-config", file, "-input", "here.gr"}, []string{"PATHFLOW_OUTPUT_DIR=out/x"}, map[string]string{
			"input.path": "here.gr",
			"output.dir": "out/x",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Read("compute", pathKeys, Source{Args: tc.args, Env: tc.env})
			if err != nil {
				t.Fatal(err)
			}
			for key, want := range tc.want {
				if got := l.Values().Path(key, false); got != want {
					t.Errorf("%s = %q, want %q", key, got, want)
				}
			}
		})
	}
}

// TestConfigFileGivenRelativeResolvesFromTheWorkingDirectory: with a
// relative -config, its paths stay relative to the working directory,
// which keeps messages and the printed output folder short.
func TestConfigFileGivenRelativeResolvesFromTheWorkingDirectory(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "configs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "configs", "c.yaml"), []byte("output:\n  dir: ../out/c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	l, err := Read("compute", pathKeys, Source{Args: []string{"-config=configs/c.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.Values().String("output.dir"), filepath.Join("out", "c"); got != want {
		t.Errorf("output.dir = %q, want %q", got, want)
	}
}

// TestEmbeddedDefaultResolvesAgainstItsDir: a default config resolves
// its paths against File.Dir, relative to the working directory.
func TestEmbeddedDefaultResolvesAgainstItsDir(t *testing.T) {
	def := &File{Name: "configs/demo.yaml (embedded)", Raw: []byte("output:\n  dir: ../out/demo\n"), Dir: "configs"}
	l, err := Read("compute", pathKeys, Source{Default: def})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.Values().String("output.dir"), filepath.Join("out", "demo"); got != want {
		t.Errorf("output.dir = %q, want %q", got, want)
	}
}
