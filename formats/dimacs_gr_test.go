package formats

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// noisyDIMACS writes e as DIMACS text with every liberty the format allows:
// comments, blank lines, runs of spaces and tabs, CRLF, leading zeros, no
// final newline. Parsing it must give e back.
func noisyDIMACS(rng *rand.Rand, e *graph.EdgeList) []byte {
	var b bytes.Buffer
	sep := func() string {
		return [...]string{" ", " ", " ", "\t", "  ", " \t "}[rng.IntN(6)]
	}
	eol := func() string {
		return [...]string{"\n", "\n", "\n", "\r\n", " \n", "\t\r\n"}[rng.IntN(6)]
	}
	num := func(v int64) string {
		if rng.IntN(20) == 0 && v >= 0 {
			return "00" + strconv.FormatInt(v, 10)
		}
		return strconv.FormatInt(v, 10)
	}
	fmt.Fprintf(&b, "c generated\nc\n\np%ssp%s%d%s%d%s", sep(), sep(), e.N, sep(), e.M(), eol())
	for i := range e.Src {
		switch rng.IntN(50) {
		case 0:
			b.WriteString("c a comment line between arcs\n")
		case 1:
			b.WriteString(eol())
		case 2:
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "a%s%s%s%s%s%s%s", sep(), num(int64(e.Src[i])+1), sep(), num(int64(e.Dst[i])+1), sep(), num(int64(e.Weight[i])), eol())
	}
	out := b.Bytes()
	if rng.IntN(2) == 0 {
		out = bytes.TrimRight(out, "\r\n \t")
	}
	return out
}

func TestReadDIMACSNoisyText(t *testing.T) {
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 1))
		n := 1 + rng.Int32N(30_000_000)
		e := graphtest.RandomGraph(rng, n, 40_000, -1_000_000, 1_000_000, 0)
		// The extremes of every field.
		e.Add(0, n-1, math.MinInt32)
		e.Add(n-1, 0, math.MaxInt32)
		e.Add(0, 0, 0)
		text := noisyDIMACS(rng, e)
		if len(text) < 3*chunkSize {
			t.Fatalf("text of %d bytes does not span several chunks", len(text))
		}
		readers := map[string]func() io.Reader{
			"bytes":   func() io.Reader { return bytes.NewReader(text) },
			"onebyte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(text)) },
			"half":    func() io.Reader { return iotest.HalfReader(bytes.NewReader(text)) },
			"dataerr": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(text)) },
			"gzip":    func() io.Reader { return bytes.NewReader(gzipBytes(t, text)) },
		}
		for name, open := range readers {
			got, err := ReadDIMACS(open(), "noisy.gr")
			if err != nil {
				t.Fatalf("seed %d, %s: %v", seed, name, err)
			}
			if diff := equalEdgeLists(got, e); diff != "" {
				t.Fatalf("seed %d, %s: %s", seed, name, diff)
			}
		}
	}
}

// TestReadDIMACSErrorLineDeep checks line numbers far past the first chunk.
func TestReadDIMACSErrorLineDeep(t *testing.T) {
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 2))
		const arcs = 50_000
		bad := 1 + rng.IntN(arcs)
		var b bytes.Buffer
		fmt.Fprintf(&b, "c header\np sp 1000 %d\n", arcs)
		for i := 1; i <= arcs; i++ {
			if i == bad {
				b.WriteString("a 1 2 3.5\n")
				continue
			}
			fmt.Fprintf(&b, "a %d %d %d\n", 1+rng.IntN(1000), 1+rng.IntN(1000), rng.IntN(100000))
		}
		_, err := ReadDIMACS(bytes.NewReader(b.Bytes()), "deep.gr")
		wantParseError(t, err, fmt.Sprintf("formats: deep.gr:%d: ", bad+2), `weight "3.5" is not an integer`)
	}
}

func TestReadDIMACSErrors(t *testing.T) {
	for _, tc := range []struct {
		text, prefix string
		fragments    []string
	}{
		{"c x\na 1 2 3\np sp 2 1\n", "bad.gr:2: ", []string{"arc before the p line"}},
		{"p sp 2 1\np sp 2 1\na 1 2 3\n", "bad.gr:2: ", []string{"second p line", "line 1"}},
		{"c only a comment\n", "bad.gr: ", []string{`no "p sp N M" line`}},
		{"", "bad.gr: ", []string{`no "p sp N M" line`}},
		{"p sp -1 0\n", "bad.gr:1: ", []string{`vertex count "-1" outside 0..2147483647`}},
		{"p sp 2147483648 0\n", "bad.gr:1: ", []string{"vertex count"}},
		{"p sp 2 -5\n", "bad.gr:1: ", []string{`arc count "-5"`}},
		{"p sp x 1\n", "bad.gr:1: ", []string{`vertex count "x" is not an integer`}},
		{"p sp 2 1.0\n", "bad.gr:1: ", []string{`arc count "1.0" is not an integer`}},
		{"p max 2 1\n", "bad.gr:1: ", []string{`p line must be "p sp N M"`}},
		{"p sp 2 1 7\n", "bad.gr:1: ", []string{`p line must be "p sp N M"`}},
		{"p sp 3 1\na 0 2 5\n", "bad.gr:2: ", []string{`source "0" outside 1..3`}},
		{"p sp 3 1\na 1 4 5\n", "bad.gr:2: ", []string{`target "4" outside 1..3`}},
		{"p sp 3 1\na 99999999999999999999999 1 5\n", "bad.gr:2: ", []string{"source", "outside 1..3"}},
		{"p sp 3 1\na 1 -2 5\n", "bad.gr:2: ", []string{`target "-2" outside 1..3`}},
		{"p sp 3 1\na 1 x 5\n", "bad.gr:2: ", []string{`target "x" is not an integer`}},
		{"p sp 3 1\na 1 2 1.5\n", "bad.gr:2: ", []string{`weight "1.5" is not an integer`}},
		{"p sp 3 1\na 1 2 +5\n", "bad.gr:2: ", []string{`weight "+5" is not an integer`}},
		{"p sp 3 1\na 1 2 2147483648\n", "bad.gr:2: ", []string{`weight "2147483648" outside the int32 range`}},
		{"p sp 3 1\na 1 2 -2147483649\n", "bad.gr:2: ", []string{`weight "-2147483649" outside the int32 range`}},
		{"p sp 3 1\na 1 2\n", "bad.gr:2: ", []string{`arc line must be "a U V W"`}},
		{"p sp 3 1\na 1 2 3 4\n", "bad.gr:2: ", []string{`arc line must be "a U V W"`}},
		{"p sp 3 1\nx 1 2 3\n", "bad.gr:2: ", []string{`unknown line type "x"`}},
		{"p sp 3 1\na1 2 3\n", "bad.gr:2: ", []string{`unknown line type "a1"`}},
		{"c\np sp 3 2\na 1 2 3\n", "bad.gr:2: ", []string{"declares 2 arcs, the file has 1"}},
		{"p sp 3 1\na 1 2 3\na 2 3 4\n", "bad.gr:1: ", []string{"declares 1 arcs, the file has 2"}},
		{"\x1f\x8b\x08", "bad.gr: ", []string{"gzip header"}},
	} {
		_, err := ReadDIMACS(strings.NewReader(tc.text), "bad.gr")
		if err == nil {
			t.Errorf("%q: no error", tc.text)
			continue
		}
		wantParseError(t, err, "formats: "+tc.prefix, tc.fragments...)
	}
}

func TestReadDIMACSCorruptGzip(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("p sp 10 20000\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "a %d %d %d\n", 1+i%10, 1+(i*7)%10, i)
	}
	z := gzipBytes(t, b.Bytes())
	_, err := ReadDIMACS(bytes.NewReader(z[:len(z)/2]), "cut.gr.gz")
	wantParseError(t, err, "formats: cut.gr.gz:", "unexpected EOF")
	var pe *ParseError
	if errors.As(err, &pe) && pe.Line < 1 {
		t.Errorf("line %d, want the line where the data stopped", pe.Line)
	}
}

// TestReadDIMACSLyingHeader checks that a header claiming 2^31 arcs over a
// short file costs no more than the preallocation cap.
func TestReadDIMACSLyingHeader(t *testing.T) {
	text := "p sp 2147483647 2147483647\na 1 2147483647 3\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadDIMACS(strings.NewReader(text), "lie.gr")
	runtime.ReadMemStats(&after)
	wantParseError(t, err, "formats: lie.gr:1: ", "declares 2147483647 arcs, more than the 6 lines")
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 100<<20 {
		t.Errorf("allocated %d MB for a two-line file", grew>>20)
	}
}

// TestReadDIMACSArcCountBeyondTheBytes checks that a p line declaring more
// arcs than the input's bytes can hold is refused at the p line, before
// any arc is read, when the size is known; compressed, the count is
// checked once the arcs are read, as for an input of unknown size.
func TestReadDIMACSArcCountBeyondTheBytes(t *testing.T) {
	text := "c a typo: one digit too many\np sp 3 20\na 1 2 3\na 2 3 4\nthis line is never read\n"
	_, err := ReadDIMACS(strings.NewReader(text), "typo.gr")
	wantParseError(t, err, "formats: typo.gr:2: ", "declares 20 arcs, more than the 10 lines")

	// The bound is the input's bytes over 8, plus one: a count within it
	// is checked once the arcs are read.
	_, err = ReadDIMACS(strings.NewReader("p sp 1 2\na 1 1 0\n"), "tight.gr")
	wantParseError(t, err, "formats: tight.gr:1: ", "declares 2 arcs, the file has 1")

	for name, r := range map[string]io.Reader{
		"typo.gr.gz":    bytes.NewReader(gzipBytes(t, []byte("p sp 3 20\na 1 2 3\n"))),
		"typo.gr.stdin": iotest.OneByteReader(strings.NewReader("p sp 3 20\na 1 2 3\n")),
	} {
		_, err := ReadDIMACS(r, name)
		wantParseError(t, err, "formats: "+name+":1: ", "declares 20 arcs, the file has 1")
	}
}

func TestReadDIMACSLongComment(t *testing.T) {
	text := "c " + strings.Repeat("x", 3*chunkSize) + "\np sp 2 1\na 1 2 -7\n"
	e, err := ReadDIMACS(strings.NewReader(text), "long.gr")
	if err != nil {
		t.Fatal(err)
	}
	if e.N != 2 || e.M() != 1 || e.Src[0] != 0 || e.Dst[0] != 1 || e.Weight[0] != -7 {
		t.Errorf("got %+v", e)
	}
}

func TestWriteDIMACSRoundTrip(t *testing.T) {
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 3))
		for _, n := range []int32{1, 2, 17, 1000} {
			e := graphtest.RandomGraph(rng, n, rng.IntN(3000), math.MinInt32, math.MaxInt32, 0)
			var b bytes.Buffer
			if err := WriteDIMACS(&b, e); err != nil {
				t.Fatal(err)
			}
			got, err := ReadDIMACS(&b, "round.gr")
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if diff := equalEdgeLists(got, e); diff != "" {
				t.Fatalf("seed %d, n %d: %s", seed, n, diff)
			}
		}
	}
	if err := WriteDIMACS(io.Discard, &graph.EdgeList{N: 1, Src: []int32{0}, Dst: []int32{1}, Weight: []int32{1}}); err == nil {
		t.Error("an invalid graph was written")
	}
}

func TestDIMACSVertices(t *testing.T) {
	vs := DIMACSVertices(4)
	for v := int32(0); v < 4; v++ {
		if got := vs.Original(v); got != int64(v)+1 {
			t.Errorf("Original(%d) = %d, want %d", v, got, v+1)
		}
	}
}

func FuzzReadDIMACS(f *testing.F) {
	f.Add([]byte("p sp 3 2\na 1 2 5\na 3 1 -4\n"))
	f.Add([]byte("c c\n\np sp 1 1\r\na\t1  1\t0"))
	f.Add([]byte("p sp 2147483647 1\na 2147483647 1 -2147483648\n"))
	f.Add([]byte("p sp 2 1\na 1 2 99999999999\n"))
	f.Add(gzipBytes(f, []byte("p sp 2 1\na 1 2 3\n")))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Small chunks on three goroutines must agree with one goroutine.
		readBoth(t, data, 3, 16)
		e, err := ReadDIMACS(bytes.NewReader(data), "fuzz.gr")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T, not a *ParseError", err, err)
			}
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteDIMACS(&b, e); err != nil {
			t.Fatal(err)
		}
		again, err := ReadDIMACS(&b, "again.gr")
		if err != nil {
			t.Fatal(err)
		}
		if diff := equalEdgeLists(again, e); diff != "" {
			t.Fatal(diff)
		}
	})
}

// endless yields the same byte forever.
type endless byte

func (b endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

func TestReadDIMACSLineTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 64 MiB")
	}
	in := io.MultiReader(strings.NewReader("p sp 1 0\nc "), io.LimitReader(endless('x'), maxLineLen+10))
	_, err := ReadDIMACS(in, "huge.gr")
	wantParseError(t, err, "formats: huge.gr:2: ", "line longer than 64 MiB")
}

// TestFastArcAgreesWithSlowPath feeds tricky arc lines to the fast path and
// to the general one: whatever the fast path accepts, the general path
// must accept with the same arc.
func TestFastArcAgreesWithSlowPath(t *testing.T) {
	pieces := []string{"", "0", "1", "7", "3", "00", "-", "+", ".", "x", "1", "2", "5", "10", "007",
		"2147483647", "2147483648", "4294967297", "99999999999", "12345678901", "-2147483648", "-2147483649"}
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 11))
		accepted := 0
		for range 200_000 {
			n := uint64(1 + rng.IntN(10))
			if rng.IntN(2) == 0 {
				n = math.MaxInt32
			}
			seps := []string{" ", " ", "\t", "  ", " \t", "", "\r"}
			ends := []string{"", "", " ", "\r", "\t\r", " x", "\r\r"}
			var line strings.Builder
			line.WriteString("a")
			for range 3 {
				line.WriteString(seps[rng.IntN(len(seps))])
				line.WriteString(pieces[rng.IntN(len(pieces))])
				if rng.IntN(8) == 0 {
					line.WriteString(pieces[rng.IntN(len(pieces))])
				}
			}
			if rng.IntN(10) == 0 {
				line.WriteString(" 5")
			}
			line.WriteString(ends[rng.IntN(len(ends))])
			line.WriteString("\n")
			b := []byte(line.String())
			u, v, w, next, ok := fastArc(b, 1, n)
			d := &dimacsReader{name: "x.gr", line: 1, pLine: 1, n: int32(n), m: 1}
			_, err := d.slowLine(b, 0)
			if !ok {
				continue
			}
			accepted++
			if next != len(b) {
				t.Fatalf("%q: fast path stopped at %d of %d", b, next, len(b))
			}
			if err != nil {
				t.Fatalf("%q: fast path accepted (%d, %d, %d), general path: %v", b, u, v, w, err)
			}
			if a := d.arcs; a.k != 1 || int64(a.src[0]) != int64(u)-1 || int64(a.dst[0]) != int64(v)-1 || a.wt[0] != w {
				t.Fatalf("%q: fast (%d, %d, %d), general (%d, %d, %d)", b, u-1, v-1, w, a.src[0], a.dst[0], a.wt[0])
			}
		}
		if accepted == 0 {
			t.Fatal("the fast path accepted no line: the test generates nothing useful")
		}
		t.Logf("seed %d: fast path accepted %d lines", seed, accepted)
	}
}
