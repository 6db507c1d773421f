package chfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/hierarchy/hierarchytest"
	"github.com/pathflow/pathflow/internal/mapfile/mapfiletest"
)

// writeTemp writes the hierarchy file of h and returns its path.
func writeTemp(t *testing.T, h *hierarchy.Hierarchy, meta map[string]string) (string, Written) {
	t.Helper()
	return mapfiletest.WriteTemp(t, "hierarchy.chf", func(w io.Writer) (Written, error) { return Write(w, h, meta) })
}

// TestRoundTrip: Open gives back every array, the checksum and the
// metadata written, a valid hierarchy whose tables are the original's,
// for a road graph, one with a single vertex and an empty one.
func TestRoundTrip(t *testing.T) {
	_, road := hierarchytest.Road(t, 30, 1)
	single, err := hierarchy.Build(context.Background(), graph.BuildCSR(graph.NewEdgeList(1, 0)), hierarchy.WithChecksum("one"))
	if err != nil {
		t.Fatal(err)
	}
	empty, err := hierarchy.Build(context.Background(), graph.BuildCSR(graph.NewEdgeList(0, 0)))
	if err != nil {
		t.Fatal(err)
	}
	metric := roadWithMetric(t)
	for _, tc := range []struct {
		name string
		h    *hierarchy.Hierarchy
	}{{"road", road}, {"road with a metric", metric}, {"one vertex", single}, {"no vertices", empty}} {
		t.Run(tc.name, func(t *testing.T) {
			path, w := writeTemp(t, tc.h, map[string]string{"k": "v"})
			info, err := ReadInfo(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Open(path, 3)
			if err != nil {
				t.Fatal(err)
			}
			hierarchytest.RequireSame(t, f.Hierarchy, tc.h)
			if err := f.Hierarchy.Validate(2); err != nil {
				t.Fatal(err)
			}
			if f.Checksum != w.Checksum || !strings.HasPrefix(w.Checksum, "crc32c:") {
				t.Fatalf("Open gives checksum %q, Write reported %q", f.Checksum, w.Checksum)
			}
			for _, got := range []*Info{info, &f.Info} {
				if got.GraphChecksum != tc.h.GraphChecksum || got.Rounds != tc.h.Rounds || got.N != tc.h.N || got.Meta["k"] != "v" || got.Bytes != w.Bytes {
					t.Fatalf("info %+v", got)
				}
			}
		})
	}
	// Queries on the mapped arrays answer as on the built ones.
	path, _ := writeTemp(t, road, nil)
	f, err := Open(path, 2)
	if err != nil {
		t.Fatal(err)
	}
	sources, targets := []int32{0, 17, 899}, []int32{3, 450, 898}
	want, err := road.Table(sources, targets, 2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Hierarchy.Table(sources, targets, 2)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("table from the mapped hierarchy %v (%v), want %v", got, err, want)
	}
	// And in metric keys, from a file with metrics.
	path, _ = writeTemp(t, metric, nil)
	if f, err = Open(path, 2); err != nil {
		t.Fatal(err)
	}
	for _, h := range []*hierarchy.Hierarchy{metric, f.Hierarchy} {
		keyed, err := h.WithMetricKeys()
		if err != nil {
			t.Fatal(err)
		}
		if got, err = keyed.Table(sources, targets, 2); err != nil {
			t.Fatal(err)
		}
		if h == metric {
			want = got
		} else if !slices.Equal(got, want) {
			t.Fatalf("keyed table from the mapped hierarchy %v, want %v", got, want)
		}
	}
}

// roadWithMetric builds the hierarchy of a generated road graph whose arcs
// carry a metric, named "length".
func roadWithMetric(t *testing.T) *hierarchy.Hierarchy {
	t.Helper()
	e, _, err := generate.Road(30, 4)
	if err != nil {
		t.Fatal(err)
	}
	e.Metric = make([]int32, e.M())
	for i := range e.Metric {
		e.Metric[i] = int32(i % 97)
	}
	h, err := hierarchy.Build(context.Background(), graph.BuildCSR(e), hierarchy.WithChecksum("road with a metric"))
	if err != nil {
		t.Fatal(err)
	}
	h.Metric = "length"
	return h
}

func TestWriteIsDeterministic(t *testing.T) {
	_, h := hierarchytest.Road(t, 12, 2)
	var a, b bytes.Buffer
	wa, err := Write(&a, h, map[string]string{"b": "2", "a": "1"})
	if err != nil {
		t.Fatal(err)
	}
	wb, err := Write(&b, h, map[string]string{"a": "1", "b": "2"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || wa != wb {
		t.Fatal("the same hierarchy and metadata gave different bytes")
	}
	if _, err := Write(&a, h, map[string]string{MetaRounds: "3"}); err == nil {
		t.Fatal("metadata that names the file's own key was written")
	}
}

// TestOpenRefusesDamage truncates, extends and corrupts a file: each is
// refused by Open with an error naming the file and saying what is wrong,
// and so is a flip in the header, metadata or padding by ReadInfo. A flip
// at any byte is refused: the header CRC covers the padding too.
func TestOpenRefusesDamage(t *testing.T) {
	_, h := hierarchytest.Road(t, 20, 3)
	good, _ := writeTemp(t, h, map[string]string{"k": "v"})
	orig, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	goodInfo, err := ReadInfo(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		damage func(b []byte) []byte
		want   string
		head   bool // ReadInfo refuses it too
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)-4096] }, "truncated", true},
		{"truncated in the header", func(b []byte) []byte { return b[:40] }, "truncated", true},
		{"empty", func(b []byte) []byte { return nil }, "truncated", true},
		{"appended", func(b []byte) []byte { return append(b, 0) }, "appended", true},
		{"an arc changed", func(b []byte) []byte { b[len(b)/2] ^= 1; return b }, "checksum mismatch", false},
		{"the checksum table changed", func(b []byte) []byte { b[len(b)-1] ^= 1; return b }, "checksum mismatch", false},
		{"metadata changed", func(b []byte) []byte { b[headerBytes+2] ^= 1; return b }, "header checksum", true},
		{"padding changed", func(b []byte) []byte { b[4000] ^= 1; return b }, "header checksum", true},
		{"a count changed", func(b []byte) []byte { b[27] ^= 1; return b }, "corrupt header", true},
		{"not a hierarchy file", func(b []byte) []byte { copy(b, "PFCSR\x00v1"); return b }, "bad magic", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hierarchy.chf")
			if err := os.WriteFile(path, tc.damage(slices.Clone(orig)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Open(path, 2)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open: %v, want an error naming %s and saying %q", err, path, tc.want)
			}
			info, err := ReadInfo(path)
			switch {
			case tc.head && (err == nil || !strings.Contains(err.Error(), path)):
				t.Fatalf("ReadInfo: %v, want an error naming %s", err, path)
			case !tc.head && err != nil:
				t.Fatalf("ReadInfo: %v, want the header read: the damage is in the arrays, which it does not read", err)
			case !tc.head && !reflect.DeepEqual(info, goodInfo):
				t.Fatalf("ReadInfo = %+v, want the undamaged file's %+v", info, goodInfo)
			}
		})
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing"), 1); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
}

// TestChecksumNamesTheFile: hierarchy files that differ in one weight, in
// their metadata or in their graph checksum have different checksums,
// though each passes its own CRCs.
func TestChecksumNamesTheFile(t *testing.T) {
	_, h := hierarchytest.Road(t, 15, 4)
	meta := map[string]string{"k": "v"}
	_, w := writeTemp(t, h, meta)
	like := func() *hierarchy.Hierarchy {
		return &hierarchy.Hierarchy{N: h.N, Rank: h.Rank, Order: h.Order, Up: h.Up, UpMiddle: h.UpMiddle,
			Down: h.Down, DownMiddle: h.DownMiddle, GraphChecksum: h.GraphChecksum, Rounds: h.Rounds}
	}
	heavier := like()
	heavier.Up.Weights = slices.Clone(h.Up.Weights)
	heavier.Up.Weights[7]++
	other := like()
	other.GraphChecksum += "0"
	others := map[string]Written{}
	_, others["an arc's weight"] = writeTemp(t, heavier, meta)
	_, others["metadata"] = writeTemp(t, h, map[string]string{"k": "w"})
	_, others["graph checksum"] = writeTemp(t, other, meta)
	for what, o := range others {
		if o.Checksum == w.Checksum {
			t.Errorf("files that differ in %s have the same checksum %s", what, o.Checksum)
		}
	}
}

// TestSharedDownWritesTheSameFile: a symmetric graph's hierarchy, whose
// Down shares Up's arrays, is written byte for byte as the same hierarchy
// with Down in arrays of its own, and the file does not change unnoticed:
// the SHA-256 below is of the file Build's hierarchy of
// road:side=40,seed=1 gives with metadata k=v (since contraction renumbers
// the vertices by locality and scores with 25 settled vertices; a change
// to the contraction changes it, deliberately).
func TestSharedDownWritesTheSameFile(t *testing.T) {
	_, h := hierarchytest.Road(t, 40, 1)
	if !hierarchytest.SharesDown(h) {
		t.Fatal("the road graph's hierarchy does not share Up's arrays with Down")
	}
	meta := map[string]string{"k": "v"}
	_, shared := writeTemp(t, h, meta)
	_, own := writeTemp(t, hierarchytest.OwnDown(h), meta)
	const before = "118541b72272f98ddb6604d37485adfb18ac411ed45738873d93847eb62ada63"
	if shared != own || shared.SHA256 != before {
		t.Fatalf("shared Down writes %+v, own Down %+v; want SHA-256 %s", shared, own, before)
	}
}
