package csrfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/mapfile/mapfiletest"
)

// randomGraph has arcs in no particular order, parallel arcs and
// self-loops, so the CSR's order differs from the edge list's.
func randomGraph(n int32, m int, seed uint64) *graph.EdgeList {
	return graphtest.RandomGraph(rand.New(rand.NewPCG(seed, 1)), n, m, -1000, 1000, 0)
}

// writeTemp writes the reload file of e and vs and returns its path.
func writeTemp(t *testing.T, e *graph.EdgeList, vs *graph.Vertices, meta map[string]string) (string, Written) {
	t.Helper()
	return mapfiletest.WriteTemp(t, "graph.csr", func(w io.Writer) (Written, error) { return Write(w, graph.BuildCSR(e), vs, meta) })
}

func TestRoundTrip(t *testing.T) {
	n := int32(5000)
	orig := make([]int64, n)
	x, y := make([]int32, n), make([]int32, n)
	for i := range orig {
		orig[i], x[i], y[i] = int64(3*i+7), int32(i)-100, int32(-i)
	}
	for _, tc := range []struct {
		name string
		e    *graph.EdgeList
		vs   *graph.Vertices
	}{
		{"identity ids", randomGraph(n, 40000, 1), nil},
		{"original ids and coordinates", randomGraph(n, 40000, 2), &graph.Vertices{OriginalID: orig, X: x, Y: y}},
		{"coordinates only", randomGraph(n, 3, 3), &graph.Vertices{X: x, Y: y}},
		{"geographic coordinates", randomGraph(n, 300, 3), &graph.Vertices{OriginalID: orig, X: x, Y: y, Geographic: true}},
		{"no arcs", graph.NewEdgeList(n, 0), nil},
		{"no vertices", graph.NewEdgeList(0, 0), nil},
		// Several checksum blocks, the last one partial.
		{"many blocks", randomGraph(1<<20, 5<<20, 4), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			meta := map[string]string{"pathflow.n": "x", "k": "v"}
			path, _ := writeTemp(t, tc.e, tc.vs, meta)
			g, err := Open(path, 3)
			if err != nil {
				t.Fatal(err)
			}
			want := graph.BuildCSR(tc.e)
			if g.CSR.N != want.N || !slices.Equal(g.CSR.Offsets, want.Offsets) || !slices.Equal(g.CSR.Targets, want.Targets) || !slices.Equal(g.CSR.Weights, want.Weights) {
				t.Fatal("the CSR read back differs from BuildCSR's")
			}
			// The edge list gives the same CSR back.
			again := graph.BuildCSR(g.Edges)
			if !slices.Equal(again.Offsets, want.Offsets) || !slices.Equal(again.Targets, want.Targets) || !slices.Equal(again.Weights, want.Weights) {
				t.Fatal("the edge list read back does not give the same CSR")
			}
			if err := g.Edges.Validate(); err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.vs == nil && g.Vertices != nil:
				t.Fatalf("vertices %+v, want nil", g.Vertices)
			case tc.vs != nil && (!slices.Equal(g.Vertices.OriginalID, tc.vs.OriginalID) || !slices.Equal(g.Vertices.X, tc.vs.X) || !slices.Equal(g.Vertices.Y, tc.vs.Y)):
				t.Fatal("vertex table differs")
			case tc.vs != nil && g.Vertices.Geographic != tc.vs.Geographic:
				t.Fatalf("geographic %v, written %v", g.Vertices.Geographic, tc.vs.Geographic)
			}
			if g.Meta["k"] != "v" || g.Meta["pathflow.n"] != "x" || len(g.Meta) != 2 {
				t.Fatalf("metadata %v", g.Meta)
			}
			// The mapping is private: writing to it changes no file byte.
			if len(g.CSR.Weights) > 0 {
				before, _ := os.ReadFile(path)
				g.CSR.Weights[0]++
				after, _ := os.ReadFile(path)
				if !bytes.Equal(before, after) {
					t.Fatal("a write to the mapped arrays reached the file")
				}
			}
		})
	}
}

func TestWriteIsDeterministic(t *testing.T) {
	e := randomGraph(100, 1000, 5)
	var a, b bytes.Buffer
	wa, err := Write(&a, graph.BuildCSR(e), nil, map[string]string{"b": "2", "a": "1"})
	if err != nil {
		t.Fatal(err)
	}
	wb, err := Write(&b, graph.BuildCSR(e), nil, map[string]string{"a": "1", "b": "2"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || wa != wb {
		t.Fatal("the same graph and metadata gave different bytes")
	}
}

// TestOpenRefusesDamage truncates, extends and corrupts a file: each is
// refused with an error naming the file and saying what is wrong.
func TestOpenRefusesDamage(t *testing.T) {
	e := randomGraph(1000, 20000, 6)
	good, _ := writeTemp(t, e, nil, map[string]string{"k": "v"})
	orig, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		damage func(b []byte) []byte
		want   string
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)-4096] }, "truncated"},
		{"truncated in the header", func(b []byte) []byte { return b[:40] }, "truncated"},
		{"empty", func(b []byte) []byte { return nil }, "truncated"},
		{"appended", func(b []byte) []byte { return append(b, 0) }, "appended"},
		{"an arc changed", func(b []byte) []byte { b[len(b)/2] ^= 1; return b }, "checksum mismatch"},
		{"metadata changed", func(b []byte) []byte { b[headerBytes+2] ^= 1; return b }, "header checksum"},
		{"not a reload file", func(b []byte) []byte { copy(b, "PAR1"); return b }, "bad magic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "graph.csr")
			if err := os.WriteFile(path, tc.damage(slices.Clone(orig)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Open(path, 2)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open: %v, want an error naming %s and saying %q", err, path, tc.want)
			}
		})
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing"), 1); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
}

// TestChecksumNamesTheFile: Open gives back the checksum Write reported,
// and files that differ in an arc's weight, in their metadata or in
// their vertex table have different checksums, though each passes its
// own CRCs.
func TestChecksumNamesTheFile(t *testing.T) {
	e := randomGraph(500, 4000, 7)
	meta := map[string]string{"k": "v"}
	path, w := writeTemp(t, e, nil, meta)
	g, err := Open(path, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(w.Checksum, "crc32c:") || g.Checksum != w.Checksum {
		t.Fatalf("Open gives checksum %q, Write reported %q", g.Checksum, w.Checksum)
	}
	heavier := &graph.EdgeList{N: e.N, Src: e.Src, Dst: e.Dst, Weight: slices.Clone(e.Weight)}
	heavier.Weight[17]++
	orig := make([]int64, e.N)
	for i := range orig {
		orig[i] = int64(i) + 1
	}
	others := map[string]Written{}
	_, others["an arc's weight"] = writeTemp(t, heavier, nil, meta)
	_, others["metadata"] = writeTemp(t, e, nil, map[string]string{"k": "w"})
	_, others["original ids"] = writeTemp(t, e, &graph.Vertices{OriginalID: orig}, meta)
	x, y := make([]int32, e.N), make([]int32, e.N)
	_, plain := writeTemp(t, e, &graph.Vertices{X: x, Y: y}, meta)
	_, geographic := writeTemp(t, e, &graph.Vertices{X: x, Y: y, Geographic: true}, meta)
	if plain.Checksum == geographic.Checksum {
		t.Error("plain and geographic coordinates give the same checksum")
	}
	for what, o := range others {
		if o.Checksum == w.Checksum {
			t.Errorf("files that differ in %s have the same checksum %s", what, o.Checksum)
		}
	}
}

// TestHeaderFlags: the geographic flag needs the coordinates' flag, a
// flag bit no version defines is refused, and Write refuses geographic
// vertices that are no longitude and latitude.
func TestHeaderFlags(t *testing.T) {
	e := randomGraph(100, 1000, 8)
	x, y := make([]int32, e.N), make([]int32, e.N)
	good, _ := writeTemp(t, e, &graph.Vertices{X: x, Y: y, Geographic: true}, nil)
	orig, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		flags uint32
		want  string
	}{
		{"an unknown bit", flagCoordinates | flagGeographic | 1<<4, "unknown header flags 0x10"},
		{"the highest bit", flagCoordinates | 1<<31, "unknown header flags"},
		{"geographic without coordinates", flagGeographic, "geographic coordinates without coordinates"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := slices.Clone(orig)
			binary.LittleEndian.PutUint32(b[8:], tc.flags)
			path := filepath.Join(t.TempDir(), "graph.csr")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Open(path, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open: %v, want an error saying %q", err, tc.want)
			}
		})
	}
	far := slices.Clone(x)
	far[3] = graph.MaxLonUnits + 1
	if _, err := Write(io.Discard, graph.BuildCSR(e), &graph.Vertices{X: far, Y: y, Geographic: true}, nil); err == nil {
		t.Error("a longitude beyond 180 degrees was written")
	}
	if _, err := Write(io.Discard, graph.BuildCSR(e), &graph.Vertices{Geographic: true}, nil); err == nil {
		t.Error("geographic vertices without coordinates were written")
	}
}

// TestMetricRoundTrip writes a graph whose arcs carry a metric and reads
// it back in the CSR's order, on the CSR and on the edge list, named as
// the metadata names it; a metric without a name is refused.
func TestMetricRoundTrip(t *testing.T) {
	e := randomGraph(3000, 20000, 9)
	e.Metric = make([]int32, e.M())
	for i := range e.Metric {
		e.Metric[i] = int32(i * 7 % 1001)
	}
	meta := map[string]string{MetaMetric: "length"}
	path, _ := writeTemp(t, e, nil, meta)
	g, err := Open(path, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := graph.BuildCSR(e)
	if g.Metric != "length" || !slices.Equal(g.CSR.Metric, want.Metric) || !slices.Equal(g.Edges.Metric, want.Metric) {
		t.Fatalf("metric %q read back differs from BuildCSR's", g.Metric)
	}
	if again := graph.BuildCSR(g.Edges); !slices.Equal(again.Metric, want.Metric) {
		t.Fatal("the edge list read back does not give the same metric")
	}
	var buf bytes.Buffer
	if _, err := Write(&buf, want, nil, nil); err == nil {
		t.Fatal("a metric without a name was written")
	}
}
