package formats

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// corrupt replaces one random line of text with bad, so the parallel and
// sequential scans must agree on an error deep in the file.
func corrupt(rng *rand.Rand, text []byte, bad string) []byte {
	lines := bytes.SplitAfter(text, []byte("\n"))
	at := rng.IntN(len(lines))
	lines[at] = []byte(bad + "\n")
	return bytes.Join(lines, nil)
}

// readBoth reads text sequentially in one large chunk and in parallel with
// the given workers and chunk size, failing the test when the results or
// the error texts differ.
func readBoth(t *testing.T, text []byte, workers, chunk int) {
	t.Helper()
	// Both readers hide the input's size, which would let one refuse a p
	// line that declares more arcs than the bytes hold before reading on.
	want, wantErr := readDIMACS(iotest.OneByteReader(bytes.NewReader(text)), "p.gr", 1, chunkSize)
	got, err := readDIMACS(iotest.HalfReader(bytes.NewReader(text)), "p.gr", workers, chunk)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%d workers, %d-byte chunks: error %v, sequential %v", workers, chunk, err, wantErr)
	}
	if wantErr == nil {
		if diff := equalEdgeLists(got, want); diff != "" {
			t.Fatalf("%d workers, %d-byte chunks: %s", workers, chunk, diff)
		}
	}
}

// TestReadDIMACSParallelAgrees checks that splitting the parse over
// goroutines changes nothing: the same arcs in the same order, the same
// first error on the same line, whatever the chunk size (down to chunks
// smaller than a line, which forces buffer growth).
func TestReadDIMACSParallelAgrees(t *testing.T) {
	bads := []string{"a 1 2 x", "a 0 1 1", "p sp 3 3", "q", "a 1 2 99999999999", "c fine", ""}
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 21))
		e := graphtest.RandomGraph(rng, 1+rng.Int32N(1000), 2000+rng.IntN(3000), -50, 1_000_000, 0)
		text := noisyDIMACS(rng, e)
		// Headers that lie both ways: the result arrays are too short (they
		// grow while workers fill windows of the old ones) or too long.
		liars := [][]byte{
			bytes.Replace(text, []byte(fmt.Sprintf("%d", e.M())), []byte(fmt.Sprintf("%d", e.M()-7)), 1),
			bytes.Replace(text, []byte(fmt.Sprintf("%d", e.M())), []byte(fmt.Sprintf("%d", e.M()+7)), 1),
		}
		for _, chunk := range []int{7, 64, 1000, 1 << 14} {
			for _, workers := range []int{2, 3} {
				readBoth(t, text, workers, chunk)
				readBoth(t, corrupt(rng, text, bads[rng.IntN(len(bads))]), workers, chunk)
				readBoth(t, liars[rng.IntN(2)], workers, chunk)
			}
		}
	}
}

// TestReadDIMACSParallelReadError checks that a read error after the p
// line is reported once the lines before it are parsed, at the next line.
func TestReadDIMACSParallelReadError(t *testing.T) {
	text := "p sp 2 3\na 1 2 1\na 2 1 1\na 1 1 1\n"
	in := io.MultiReader(strings.NewReader(text), iotest.ErrReader(errors.New("disk gone")))
	_, err := readDIMACS(in, "gone.gr", 2, 10)
	wantParseError(t, err, "formats: gone.gr:5: ", "disk gone")
}
