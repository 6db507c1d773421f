package formats

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// TestDIMACSArcLine finds arcs by position in DIMACS texts with every
// liberty of the format (noisyDIMACS), plain and gzip, one of them with a
// comment longer than the reading buffer: the line found is the arc's
// (parsed again, it is that arc), and an arc past the last is an error.
func TestDIMACSArcLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 31))
	for trial := range 6 {
		e := graphtest.RandomGraph(rng, 1+rng.Int32N(500), 1+rng.IntN(3000), -50, 1000, 0)
		text := noisyDIMACS(rng, e)
		if trial == 1 {
			text = append([]byte("c "+strings.Repeat("x", 3*chunkSize)+"\n"), text...)
		}
		if trial%2 == 1 {
			text = gzipBytes(t, text)
		}
		plain := text
		if trial%2 == 1 {
			plain = gunzipped(t, text)
		}
		lines := bytes.Split(plain, []byte("\n"))
		for range 20 {
			arc := rng.IntN(e.M())
			line, err := DIMACSArcLine(bytes.NewReader(text), "g.gr", arc)
			if err != nil {
				t.Fatalf("trial %d, arc %d: %v", trial, arc, err)
			}
			got, err := ReadDIMACS(strings.NewReader("p sp "+strconv.Itoa(int(e.N))+" 1\n"+string(lines[line-1])+"\n"), "line")
			if err != nil {
				t.Fatalf("trial %d, arc %d: line %d %q: %v", trial, arc, line, lines[line-1], err)
			}
			if got.Src[0] != e.Src[arc] || got.Dst[0] != e.Dst[arc] || got.Weight[0] != e.Weight[arc] {
				t.Fatalf("trial %d: arc %d is %d -> %d (%d), line %d holds %d -> %d (%d)", trial, arc,
					e.Src[arc], e.Dst[arc], e.Weight[arc], line, got.Src[0], got.Dst[0], got.Weight[0])
			}
		}
		_, err := DIMACSArcLine(bytes.NewReader(text), "g.gr", e.M())
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != "g.gr" {
			t.Fatalf("trial %d: arc %d of %d: %v, want a ParseError naming the file", trial, e.M(), e.M(), err)
		}
	}
}

// gunzipped returns the decompressed bytes of a gzip text.
func gunzipped(t *testing.T, gz []byte) []byte {
	t.Helper()
	r, err := openMaybeGzip(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
