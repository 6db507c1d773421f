package formats

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/graph"
)

// testSeeds returns two fixed seeds and one fresh seed, each logged so a
// failure can be replayed.
func testSeeds(t *testing.T) []uint64 {
	t.Helper()
	seeds := []uint64{1, 20240607, uint64(time.Now().UnixNano())}
	t.Logf("seeds %v", seeds)
	return seeds
}

// equalEdgeLists reports the first difference between two edge lists, or "".
func equalEdgeLists(a, b *graph.EdgeList) string {
	switch {
	case a.N != b.N:
		return "vertex counts differ"
	case a.M() != b.M():
		return "arc counts differ"
	}
	for i := range a.Src {
		if a.Src[i] != b.Src[i] || a.Dst[i] != b.Dst[i] || a.Weight[i] != b.Weight[i] {
			return "arcs differ at index " + strconv.Itoa(i)
		}
	}
	return ""
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func gzipBytes(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// wantParseError checks that err is a *ParseError whose text starts with
// prefix (such as "formats: bad.gr:3: ") and contains every fragment.
func wantParseError(t *testing.T, err error, prefix string, fragments ...string) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T), want a *ParseError", err, err)
	}
	checkText(t, err, prefix, fragments)
}

// wantBinaryError is wantParseError for *BinaryError.
func wantBinaryError(t *testing.T, err error, prefix string, fragments ...string) {
	t.Helper()
	var be *BinaryError
	if !errors.As(err, &be) {
		t.Fatalf("error %v (%T), want a *BinaryError", err, err)
	}
	checkText(t, err, prefix, fragments)
}

func checkText(t *testing.T, err error, prefix string, fragments []string) {
	t.Helper()
	text := err.Error()
	if !strings.HasPrefix(text, prefix) {
		t.Errorf("error %q does not start with %q", text, prefix)
	}
	for _, f := range fragments {
		if !strings.Contains(text, f) {
			t.Errorf("error %q does not mention %q", text, f)
		}
	}
}
