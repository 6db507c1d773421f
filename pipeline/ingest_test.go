package pipeline

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/tables"
)

func loadIngest(t *testing.T, args ...string) *IngestConfig {
	t.Helper()
	l, err := config.Load("ingest", IngestKeys(), args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := IngestConfigFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestIngestRoundTripsThroughBothFormats(t *testing.T) {
	text := "c tiny\np sp 4 5\na 1 2 7\na 2 3 1\na 3 4 2\na 4 1 9\na 1 3 3\n"
	plain := writeFile(t, "tiny.gr", text)
	// A gzip copy under a name that does not say so: detection is by bytes.
	zipped := filepath.Join(t.TempDir(), "tiny-copy.gr")
	f, _ := os.Create(zipped)
	zw := gzip.NewWriter(f)
	zw.Write([]byte(text))
	zw.Close()
	f.Close()

	for _, format := range []string{"arrow", "parquet"} {
		for _, input := range []string{plain, zipped} {
			out := filepath.Join(t.TempDir(), "g")
			res, err := Ingest(context.Background(), loadIngest(t, "-input", input, "-out", out, "-output-format", format), quietLog, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			ft, _ := tables.ParseFormat(format)
			e, vs, meta, err := tables.ReadGraph(tables.GraphFilesIn(out, ft))
			if err != nil {
				t.Fatal(err)
			}
			if e.N != 4 || !slices.Equal(e.Src, []int32{0, 1, 2, 3, 0}) || !slices.Equal(e.Dst, []int32{1, 2, 3, 0, 2}) || !slices.Equal(e.Weight, []int32{7, 1, 2, 9, 3}) {
				t.Errorf("%s from %s: read back %+v", format, input, e)
			}
			if vs.Original(3) != 4 {
				t.Errorf("DIMACS vertex 4 is dense 3, original id %d", vs.Original(3))
			}
			if meta[MetaInputSHA256] != res.Graph.SHA256 || meta[MetaN] != "4" || meta[MetaM] != "5" || meta[MetaVersion] != Version {
				t.Errorf("metadata %v", meta)
			}
		}
	}
}

func TestIngestErrorsNameFileAndLine(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"p sp 2 1\na 1 3 5\n", "bad.gr:2"},
		{"p sp 2 1\na 1 2 x\n", "bad.gr:2"},
		{"p sp 2 2\na 1 2 5\n", "bad.gr"},
		{"a 1 2 5\n", "bad.gr:1"},
	} {
		input := writeFile(t, "bad.gr", tc.text)
		out := filepath.Join(t.TempDir(), "g")
		_, err := Ingest(context.Background(), loadIngest(t, "-input", input, "-out", out), quietLog, io.Discard)
		if ExitCode(err) != ExitInput || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want an input error naming %s", tc.text, err, tc.want)
		}
		if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("%q: a failed ingest left %v", tc.text, entries)
		}
	}
}

func TestIngestSharedDatasets(t *testing.T) {
	for _, d := range []struct {
		name  string
		n, m  int32
		extra []string
	}{
		{"rome99.gr", 3353, 8870, nil},
		{"p2p-Gnutella04.txt", 10876, 39994, []string{"-weights", "hash"}},
	} {
		path, ok := datasets.MirrorFile(d.name)
		if !ok {
			t.Skipf("%s not in %s (set %s)", d.name, datasets.MirrorDir(), datasets.MirrorEnv)
		}
		out := filepath.Join(t.TempDir(), "g")
		res, err := Ingest(context.Background(), loadIngest(t, append([]string{"-input", path, "-out", out}, d.extra...)...), quietLog, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if res.Graph.Edges.N != d.n || int32(res.Graph.Edges.M()) != d.m {
			t.Errorf("%s: n=%d m=%d, want %d %d", d.name, res.Graph.Edges.N, res.Graph.Edges.M(), d.n, d.m)
		}
		e, _, _, err := tables.ReadGraph(tables.GraphFilesIn(out, tables.Arrow))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(e.Src, res.Graph.Edges.Src) || !slices.Equal(e.Weight, res.Graph.Edges.Weight) {
			t.Errorf("%s: the edges table differs from the parsed graph", d.name)
		}
	}
}

func TestIngestDatasetChecksManifestCounts(t *testing.T) {
	mirror := t.TempDir()
	// A well-formed file that is not the published rome99.
	if err := os.WriteFile(filepath.Join(mirror, "rome99.gr"), []byte("p sp 2 1\na 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "g")
	_, err := Ingest(context.Background(), loadIngest(t, "-dataset", "rome99", "-mirror", mirror, "-offline", "-out", out), quietLog, io.Discard)
	if ExitCode(err) != ExitInput || !strings.Contains(err.Error(), "3353") {
		t.Fatalf("err = %v, want an input error citing the manifest's counts", err)
	}
}
