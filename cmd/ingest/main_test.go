package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/cmd/internal/cli"
	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/version"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
)

const roads = "c three roads\np sp 3 3\na 1 2 5\na 2 3 1\na 3 1 2\n"

// write puts data in a file called name under dir.
func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func gzipped(t *testing.T, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCommand runs the command as a scheduler would and checks the exit
// code, what it prints and what it writes.
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	plain := write(t, dir, "roads.gr", []byte(roads))
	misnamed := write(t, dir, "roads.txt", gzipped(t, roads))
	for _, tc := range []struct {
		name   string
		args   []string
		env    []string
		code   int
		files  []string // written under the output folder, sorted; the data file first
		stderr []string
	}{
		{name: "parquet by default", args: []string{"-input", plain}, code: cli.ExitOK,
			files: []string{"edges.parquet", input.ReloadName, output.ManifestName, "vertices.parquet"}, stderr: []string{"format dimacs (content: 'p sp' line)"}},
		{name: "gzip under another name", args: []string{"-input", misnamed}, code: cli.ExitOK,
			files: []string{"edges.parquet", input.ReloadName, output.ManifestName, "vertices.parquet"}, stderr: []string{"gzip by magic bytes"}},
		{name: "arrow from the environment", args: []string{"-input", plain}, env: []string{"PATHFLOW_OUTPUT_FORMAT=arrow"},
			code: cli.ExitOK, files: []string{"edges.arrow", input.ReloadName, output.ManifestName, "vertices.arrow"}},
		{name: "dimacs conversion", args: []string{"-input", plain, "-output-format", "dimacs"}, code: cli.ExitOK,
			files: []string{ingest.ConvertedDIMACS, output.ManifestName}},
		{name: "binary conversion", args: []string{"-input", plain, "-output-format=binary", "-quiet"}, code: cli.ExitOK,
			files: []string{ingest.ConvertedBinary, output.ManifestName}},
		{name: "input error", args: []string{"-input", write(t, dir, "bad.gr", []byte("p sp 2 1\na 1 3 5\n"))},
			code: cli.ExitInput, stderr: []string{"ingest: error: formats: " + filepath.Join(dir, "bad.gr") + ":2: target \"3\" outside 1..2 (exit 3)"}},
		{name: "unknown format", args: []string{"-input", plain, "-output-format", "csv"}, code: cli.ExitConfig,
			stderr: []string{`config key "output.format"`, "(exit 2)"}},
		{name: "no input", code: cli.ExitConfig, stderr: []string{`config key "input.path"`, "(exit 2)"}},
		{name: "missing input", args: []string{"-input", filepath.Join(dir, "none.gr")}, code: cli.ExitInput,
			stderr: []string{"ingest: error: input.path: " + filepath.Join(dir, "none.gr") + ": no such file or directory (exit 3)"}},
		{name: "misspelled flag", args: []string{"-hierachy", "off"}, code: cli.ExitConfig,
			stderr: []string{"ingest: error: unknown flag -hierachy (did you mean -hierarchy?) (exit 2)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "g")
			var stdout, stderr bytes.Buffer
			env := append([]string{"PATHFLOW_DATASETS=/nowhere"}, tc.env...)
			code := cli.Run(cli.Ingest(), append(tc.args, "-out", out), env, &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			for _, want := range tc.stderr {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr does not say %q:\n%s", want, stderr.String())
				}
			}
			if tc.code != cli.ExitOK {
				// The output folder's parent, where its temporary folder
				// would be, is left as it was: empty.
				entries, err := os.ReadDir(filepath.Dir(out))
				if err != nil {
					t.Fatal(err)
				}
				if len(entries) != 0 {
					t.Errorf("a failed run left %v", entries)
				}
				return
			}
			if got := strings.TrimSpace(stdout.String()); got != out {
				t.Errorf("printed %q, want the output folder %q", got, out)
			}
			entries, err := os.ReadDir(out)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if !slices.Equal(names, tc.files) {
				t.Errorf("wrote %v, want %v", names, tc.files)
			}
			checkGraph(t, out, tc.files[0])
		})
	}
}

// checkGraph reads back the written graph and compares it with roads.
func checkGraph(t *testing.T, dir, first string) {
	t.Helper()
	path := filepath.Join(dir, first)
	var src, dst, wt []int32
	switch first {
	case ingest.ConvertedDIMACS, ingest.ConvertedBinary:
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		read := formats.ReadDIMACS
		if first == ingest.ConvertedBinary {
			read = formats.ReadBinary
		}
		e, err := read(f, path)
		if err != nil {
			t.Fatal(err)
		}
		src, dst, wt = e.Src, e.Dst, e.Weight
	default:
		format, err := tables.DetectFileFormat(path)
		if err != nil {
			t.Fatal(err)
		}
		e, _, _, err := tables.ReadGraph(tables.GraphFilesIn(dir, format))
		if err != nil {
			t.Fatal(err)
		}
		src, dst, wt = e.Src, e.Dst, e.Weight
	}
	if !slices.Equal(src, []int32{0, 1, 2}) || !slices.Equal(dst, []int32{1, 2, 0}) || !slices.Equal(wt, []int32{5, 1, 2}) {
		t.Errorf("%s holds %v %v %v", first, src, dst, wt)
	}
}

// TestOutputOverTheInputIsRefused: ingest -input IN -out IN (IN an ingest
// output) exits 5 with one error line naming the folder and the key, and
// IN still holds the tables it held.
func TestOutputOverTheInputIsRefused(t *testing.T) {
	dir := t.TempDir()
	plain := write(t, dir, "roads.gr", []byte(roads))
	in := filepath.Join(dir, "in")
	var stdout, stderr bytes.Buffer
	if code := cli.Run(cli.Ingest(), []string{"-input", plain, "-out", in}, nil, &stdout, &stderr); code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	edges, err := os.ReadFile(filepath.Join(in, "edges.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	code := cli.Run(cli.Ingest(), []string{"-input", in, "-out", in, "-output-format", "arrow"}, nil, &stdout, &stderr)
	if code != cli.ExitOutput {
		t.Fatalf("exit %d, want %d: %s", code, cli.ExitOutput, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "ingest: error: ") || !strings.Contains(last, output.KeyOutputDir) ||
		!strings.Contains(last, input.KeyInputPath) || !strings.Contains(last, in) {
		t.Errorf("error line %q does not name the folder and both keys", last)
	}
	if now, err := os.ReadFile(filepath.Join(in, "edges.parquet")); err != nil || !bytes.Equal(now, edges) {
		t.Errorf("the input's edges table changed or is gone: %v", err)
	}
	if _, err := os.Stat(filepath.Join(in, "edges.arrow")); err == nil {
		t.Error("an arrow table was written into the input folder")
	}
}

func TestVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := cli.Run(cli.Ingest(), []string{"-version"}, nil, &stdout, &stderr)
	if want := "ingest " + version.Version + " ("; code != cli.ExitOK || !strings.HasPrefix(stdout.String(), want) || stderr.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 0 and a line starting %q", code, &stdout, &stderr, want)
	}
}
