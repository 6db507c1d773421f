package formats

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
)

// tinyArcs is the graph every testdata/tiny.* file holds, as dense
// (source, target, weight) triples in file order.
var tinyArcs = [][3]int32{{0, 1, 7}, {1, 2, 1}, {2, 3, 2}, {0, 3, 20}, {3, 0, 3}}

// TestRegistry checks each format of the registry on its file in
// testdata: its name, that its content is recognised whatever the file is
// called, that its extensions (with and without .gz) name it, and that its
// reader gives the file's graph back, from gzip too where it reads gzip.
func TestRegistry(t *testing.T) {
	for _, tc := range []struct {
		kind       Kind
		graph      bool
		extensions []string
		gzip       bool
		file       string // in testdata; "" where a table is built in place
		rule       string // the content rule that recognises it
		check      func(t *testing.T, e *graph.EdgeList, vs *graph.Vertices)
	}{
		{KindDIMACS, true, []string{".gr"}, true, "tiny.gr", "content: 'p sp' line", wantTinyArcs(nil)},
		{KindCoordinates, false, []string{".co"}, true, "tiny.co", "content: 'p aux sp co' line", wantTinyCoordinates},
		{KindSNAP, true, []string{".txt", ".tsv", ".edges", ".el"}, true, "tiny.txt", "content: '# Nodes:' header", wantTinyArcs([]int64{10, 20, 30, 40})},
		{KindBinary, true, []string{".bin"}, false, "tiny.bin", "content: binary header n=4 m=5 matches the size 68", wantTinyArcs(nil)},
		{KindTable, true, []string{".arrow", ".parquet", ".feather"}, false, "", "content: Parquet magic", nil},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			f, ok := Lookup(string(tc.kind))
			if !ok || f.Kind != tc.kind || f.String() != string(tc.kind) || f.Graph != tc.graph || f.Gzip != tc.gzip {
				t.Fatalf("Lookup(%q) = %+v, %v", tc.kind, f, ok)
			}
			if !slices.Equal(f.Extensions, tc.extensions) {
				t.Errorf("extensions %v, want %v", f.Extensions, tc.extensions)
			}
			for _, ext := range tc.extensions {
				for _, name := range []string{"dir.bin/graph" + ext, "GRAPH" + strings.ToUpper(ext) + ".gz"} {
					if got, gotExt, ok := ByName(name); !ok || got.Kind != tc.kind || gotExt != ext {
						t.Errorf("ByName(%q) = %s, %q, %v; want %s", name, got.Kind, gotExt, ok, tc.kind)
					}
				}
			}
			path := filepath.Join("testdata", tc.file)
			if tc.file == "" {
				path = filepath.Join(t.TempDir(), "edges.parquet")
				if err := os.WriteFile(path, []byte("PAR1 a table's bytes"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data := readFile(t, path)
			det, err := DetectFile(path)
			if err != nil || det.Kind != tc.kind || det.Gzip || det.Rule != tc.rule {
				t.Errorf("DetectFile(%s) = %+v, %v; want %s by %q", path, det, err, tc.kind, tc.rule)
			}
			// The content decides, whatever the name says.
			if det, err := Detect(bytes.NewReader(data), int64(len(data)), "misnamed.dat"); err != nil || det.Kind != tc.kind {
				t.Errorf("Detect(misnamed.dat) = %+v, %v; want %s", det, err, tc.kind)
			}
			if tc.kind == KindTable {
				if f.Read != nil {
					t.Error("tables are read by path, with their manifest: Read should be nil")
				}
				return
			}
			inputs := map[string][]byte{"plain": data}
			if tc.gzip {
				inputs["gzip"] = gzipBytes(t, data)
			}
			for how, in := range inputs {
				e, vs, err := f.Read(bytes.NewReader(in), tc.file, ReadOptions{SNAP: SNAPOptions{Directed: true}})
				if err != nil {
					t.Fatalf("%s: %v", how, err)
				}
				tc.check(t, e, vs)
			}
		})
	}
}

// wantTinyArcs checks a graph read from a tiny.* file; ids, when set, are
// the original ids its vertices must have.
func wantTinyArcs(ids []int64) func(t *testing.T, e *graph.EdgeList, vs *graph.Vertices) {
	return func(t *testing.T, e *graph.EdgeList, vs *graph.Vertices) {
		t.Helper()
		if e == nil || e.N != 4 || e.M() != len(tinyArcs) {
			t.Fatalf("got %+v, want 4 vertices and %d arcs", e, len(tinyArcs))
		}
		for i, a := range tinyArcs {
			if got := [3]int32{e.Src[i], e.Dst[i], e.Weight[i]}; got != a {
				t.Errorf("arc %d: %v, want %v", i, got, a)
			}
		}
		if ids == nil {
			if vs != nil {
				t.Errorf("vertices %+v, want none", vs)
			}
			return
		}
		if vs == nil || !slices.Equal(vs.OriginalID, ids) {
			t.Errorf("vertices %+v, want original ids %v", vs, ids)
		}
	}
}

// wantTinyCoordinates checks the coordinates read from tiny.co.
func wantTinyCoordinates(t *testing.T, e *graph.EdgeList, vs *graph.Vertices) {
	t.Helper()
	if e != nil || vs == nil {
		t.Fatalf("got arcs %v and vertices %v, want vertices only", e, vs)
	}
	// Millionths of a degree, within a longitude's and a latitude's
	// range: geographic, in 10^-7 degree.
	if !vs.Geographic || !slices.Equal(vs.X, []int32{0, 1000, 1000, -50}) || !slices.Equal(vs.Y, []int32{0, 0, 1000, 1000}) {
		t.Errorf("coordinates %v %v (geographic %v)", vs.X, vs.Y, vs.Geographic)
	}
}

// TestRegistryWritersRoundTrip checks that what the graph writers write,
// the registry's readers read back unchanged.
func TestRegistryWritersRoundTrip(t *testing.T) {
	tiny, err := ReadDIMACS(bytes.NewReader(readFile(t, "testdata/tiny.gr")), "tiny.gr")
	if err != nil {
		t.Fatal(err)
	}
	for kind, write := range map[Kind]func(*bytes.Buffer, *graph.EdgeList) error{
		KindDIMACS: func(b *bytes.Buffer, e *graph.EdgeList) error { return WriteDIMACS(b, e) },
		KindBinary: func(b *bytes.Buffer, e *graph.EdgeList) error { return WriteBinary(b, e) },
	} {
		var b bytes.Buffer
		if err := write(&b, tiny); err != nil {
			t.Fatal(err)
		}
		f, _ := Lookup(string(kind))
		e, _, err := f.Read(&b, "written", ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if diff := equalEdgeLists(e, tiny); diff != "" {
			t.Errorf("%s: %s", kind, diff)
		}
	}
}

// TestRegistryNames checks the lists messages and input.format take their
// names from, and that only registry kinds are found.
func TestRegistryNames(t *testing.T) {
	if got := GraphNames(); !slices.Equal(got, []string{"dimacs", "snap", "binary", "osm", "table"}) {
		t.Errorf("GraphNames() = %v", got)
	}
	var kinds []Kind
	for _, f := range All() {
		kinds = append(kinds, f.Kind)
	}
	if !slices.Equal(kinds, []Kind{KindDIMACS, KindCoordinates, KindSNAP, KindBinary, KindOSM, KindTable}) {
		t.Errorf("All() lists %v", kinds)
	}
	for _, name := range []string{"", "auto", "generated", "distmatrix", "DIMACS", "csv"} {
		if f, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) = %+v, want none", name, f)
		}
	}
	for _, name := range []string{"graph", "graph.gz", "graph.dat", "graph.csv.gz", "graph.gr.zip"} {
		if f, _, ok := ByName(name); ok {
			t.Errorf("ByName(%q) = %s, want none", name, f.Kind)
		}
	}
	// A caller's changes to a format leave the registry alone.
	f, _ := Lookup(string(KindSNAP))
	f.Extensions[0] = ".csv"
	if again, _ := Lookup(string(KindSNAP)); again.Extensions[0] != ".txt" {
		t.Errorf("the registry changed: %v", again.Extensions)
	}
}

// TestDetectFileFolder checks that a folder is taken for an ingest output
// and that a missing path comes back as the os error it is.
func TestDetectFileFolder(t *testing.T) {
	dir := t.TempDir()
	det, err := DetectFile(dir)
	if err != nil || det.Kind != KindTable || det.Rule != "a folder: an ingest output" {
		t.Errorf("DetectFile(folder) = %+v, %v", det, err)
	}
	if _, err := DetectFile(filepath.Join(dir, "missing.gr")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v, want a not-exist error", err)
	}
}
