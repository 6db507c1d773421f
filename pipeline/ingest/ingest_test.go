package ingest

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/version"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// loadIngest reads an ingest configuration from command-line args.
func loadIngest(t testing.TB, args ...string) *Config {
	t.Helper()
	return stagetest.Load(t, "ingest", Keys(), ConfigFrom, args...)
}

func TestIngestRoundTripsThroughBothFormats(t *testing.T) {
	text := "c tiny\np sp 4 5\na 1 2 7\na 2 3 1\na 3 4 2\na 4 1 9\na 1 3 3\n"
	plain := stagetest.WriteFile(t, "tiny.gr", text)
	// A gzip copy under a name that does not say so: detection is by bytes.
	zipped := stagetest.WriteFile(t, "tiny-copy.txt", string(stagetest.GzipText(t, text)))

	for _, format := range []string{"", "arrow", "parquet"} {
		for _, in := range []string{plain, zipped} {
			out := filepath.Join(t.TempDir(), "g")
			args := []string{"-input", in, "-out", out}
			if format != "" {
				args = append(args, "-output-format", format)
			}
			res, err := Run(context.Background(), loadIngest(t, args...), stagetest.QuietLog, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			// Parquet by default; each file with its readers' extension,
			// and the reload file.
			ext := ".parquet"
			if format == "arrow" {
				ext = ".arrow"
			}
			if len(res.Files) != 3 || res.Files[0].Path != filepath.Join(out, "edges"+ext) || res.Files[1].Path != filepath.Join(out, "vertices"+ext) || res.Files[2].Path != filepath.Join(out, input.ReloadName) {
				t.Fatalf("%q: wrote %+v", format, res.Files)
			}
			ft, _ := tables.ParseFormat(strings.TrimPrefix(ext, "."))
			e, vs, meta, err := tables.ReadGraph(tables.GraphFilesIn(out, ft))
			if err != nil {
				t.Fatal(err)
			}
			if e.N != 4 || !slices.Equal(e.Src, []int32{0, 1, 2, 3, 0}) || !slices.Equal(e.Dst, []int32{1, 2, 3, 0, 2}) || !slices.Equal(e.Weight, []int32{7, 1, 2, 9, 3}) {
				t.Errorf("%s from %s: read back %+v", format, in, e)
			}
			if vs.Original(3) != 4 {
				t.Errorf("DIMACS vertex 4 is dense 3, original id %d", vs.Original(3))
			}
			if meta[input.MetaInputSHA256] != stagetest.FileSHA256(t, in) || meta[input.MetaN] != "4" || meta[input.MetaM] != "5" || meta[input.MetaVersion] != version.Version {
				t.Errorf("metadata %v", meta)
			}
		}
	}
}

// TestIngestOutputDefaults checks the codecs every reader opens without a
// plugin: snappy Parquet, uncompressed Arrow IPC, and zstd or lz4 only
// when asked.
func TestIngestOutputDefaults(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		format tables.Format
		codec  tables.Compression
	}{
		{nil, tables.Parquet, tables.Snappy},
		{[]string{"-output-format", "arrow"}, tables.Arrow, tables.Uncompressed},
		{[]string{"-output-format", "arrow", "-compression", "lz4"}, tables.Arrow, tables.LZ4},
		{[]string{"-compression", "zstd"}, tables.Parquet, tables.Zstd},
	} {
		cfg := loadIngest(t, append([]string{"-input", "x.gr"}, tc.args...)...)
		if cfg.Tables != tc.format || cfg.Compression != tc.codec {
			t.Errorf("%v: %v with %v, want %v with %v", tc.args, cfg.Tables, cfg.Compression, tc.format, tc.codec)
		}
	}
	for _, bad := range [][]string{
		{"-output-format", "arrow", "-compression", "snappy"},
		{"-output-format", "dimacs", "-compression", "zstd"},
		{"-output-format", "csv"},
	} {
		l, err := config.Load("ingest", Keys(), append([]string{"-input", "x.gr"}, bad...), io.Discard)
		if err == nil {
			_, err = ConfigFrom(l)
		}
		if stageerr.KindOf(err) != stageerr.Config || !strings.Contains(err.Error(), "output.") {
			t.Errorf("%v: err = %v, want a config error naming the key", bad, err)
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
		in := stagetest.WriteFile(t, "bad.gr", tc.text)
		out := filepath.Join(t.TempDir(), "g")
		_, err := Run(context.Background(), loadIngest(t, "-input", in, "-out", out), stagetest.QuietLog, io.Discard)
		if stageerr.KindOf(err) != stageerr.Input || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want an input error naming %s", tc.text, err, tc.want)
		}
		// Nothing is left where the output or its temporary folder would be.
		entries, err := os.ReadDir(filepath.Dir(out))
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 0 {
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
		res, err := Run(context.Background(), loadIngest(t, append([]string{"-input", path, "-out", out}, d.extra...)...), stagetest.QuietLog, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if res.Graph.Edges.N != d.n || int32(res.Graph.Edges.M()) != d.m {
			t.Errorf("%s: n=%d m=%d, want %d %d", d.name, res.Graph.Edges.N, res.Graph.Edges.M(), d.n, d.m)
		}
		e, _, _, err := tables.ReadGraph(tables.GraphFilesIn(out, tables.Parquet))
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
	_, err := Run(context.Background(), loadIngest(t, "-dataset", "rome99", "-mirror", mirror, "-offline", "-out", out), stagetest.QuietLog, io.Discard)
	if stageerr.KindOf(err) != stageerr.Input || !strings.Contains(err.Error(), "3353") {
		t.Fatalf("err = %v, want an input error citing the manifest's counts", err)
	}
}

// TestIngestConversions converts graphs to the binary and DIMACS formats
// and reads the files back with the formats' readers: the arcs are those
// of the input, and ingesting the converted file again gives the same
// graph.
func TestIngestConversions(t *testing.T) {
	inputs := map[string][]string{
		"tiny.gr":   {"-input", stagetest.WriteFile(t, "tiny.gr", "p sp 5 4\na 1 2 7\na 2 3 -1\na 5 5 0\na 4 1 2147483647\n")},
		"peers.txt": {"-input", stagetest.WriteFile(t, "peers.txt", "# Nodes: 3 Edges: 2\n10 20\n30 10\n"), "-weights", "hash", "-directed=false"},
	}
	for name, args := range inputs {
		for _, format := range []string{IngestBinary, IngestDIMACS} {
			out := filepath.Join(t.TempDir(), "g")
			res, err := Run(context.Background(), loadIngest(t, append(args, "-out", out, "-output-format", format)...), stagetest.QuietLog, io.Discard)
			if err != nil {
				t.Fatalf("%s to %s: %v", name, format, err)
			}
			file := filepath.Join(out, map[string]string{IngestBinary: ConvertedBinary, IngestDIMACS: ConvertedDIMACS}[format])
			if len(res.Files) != 1 || res.Files[0].Path != file || res.Files[0].SHA256 != stagetest.FileSHA256(t, file) {
				t.Fatalf("%s to %s: files %+v", name, format, res.Files)
			}
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			read := map[string]func(io.Reader, string) (*graph.EdgeList, error){IngestBinary: formats.ReadBinary, IngestDIMACS: formats.ReadDIMACS}[format]
			back, err := read(f, file)
			f.Close()
			if err != nil {
				t.Fatalf("%s to %s: reading back: %v", name, format, err)
			}
			want := res.Graph.Edges
			if back.N != want.N || !slices.Equal(back.Src, want.Src) || !slices.Equal(back.Dst, want.Dst) || !slices.Equal(back.Weight, want.Weight) {
				t.Errorf("%s to %s: read back %+v, want %+v", name, format, back, want)
			}
			again, err := Run(context.Background(), loadIngest(t, "-input", file, "-out", filepath.Join(out, "again")), stagetest.QuietLog, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if again.Graph.Format != format || !slices.Equal(again.Graph.Edges.Weight, want.Weight) {
				t.Errorf("%s to %s: ingested again as %s with weights %v", name, format, again.Graph.Format, again.Graph.Edges.Weight)
			}
		}
	}
}
