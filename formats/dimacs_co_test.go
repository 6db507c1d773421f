package formats

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// writeCoordinates renders coordinates as a .co text, ids in the given
// order, with a comment between some lines.
func writeCoordinates(xs, ys []int32, order []int, commentEvery int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "c coordinates\np aux sp co %d\n", len(xs))
	for i, v := range order {
		if commentEvery > 0 && i%commentEvery == 0 {
			b.WriteString("c between\n\n")
		}
		fmt.Fprintf(&b, "v %d %d %d\n", v+1, xs[v], ys[v])
	}
	return b.Bytes()
}

func TestReadCoordinates(t *testing.T) {
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 4))
		n := 1 + rng.IntN(50_000)
		xs, ys := make([]int32, n), make([]int32, n)
		for v := range n {
			xs[v], ys[v] = int32(rng.Uint32()), int32(rng.Uint32())
		}
		xs[0], ys[0] = math.MinInt32, math.MaxInt32
		order := rng.Perm(n)
		text := writeCoordinates(xs, ys, order, 1+rng.IntN(100))
		for name, data := range map[string][]byte{"plain": text, "gzip": gzipBytes(t, text)} {
			vs, err := ReadCoordinates(bytes.NewReader(data), "g.co")
			if err != nil {
				t.Fatalf("seed %d, %s: %v", seed, name, err)
			}
			if len(vs.X) != n || len(vs.Y) != n || len(vs.OriginalID) != n || !vs.HasCoordinates() {
				t.Fatalf("seed %d, %s: lengths %d, %d, %d, want %d", seed, name, len(vs.X), len(vs.Y), len(vs.OriginalID), n)
			}
			for v := range n {
				if vs.X[v] != xs[v] || vs.Y[v] != ys[v] || vs.Original(int32(v)) != int64(v)+1 {
					t.Fatalf("seed %d, %s: vertex %d: (%d, %d, id %d), want (%d, %d, id %d)",
						seed, name, v, vs.X[v], vs.Y[v], vs.OriginalID[v], xs[v], ys[v], v+1)
				}
			}
		}
	}
}

// TestReadCoordinatesRepeatedLine checks the line named for a repeated id
// when comments are interleaved, against line numbers counted in the text.
func TestReadCoordinatesRepeatedLine(t *testing.T) {
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 5))
		n := 2 + rng.IntN(2000)
		order := rng.Perm(n)
		// Replace one line's id with an id that appears earlier.
		second := 1 + rng.IntN(n-1)
		first := rng.IntN(second)
		order[second] = order[first]
		xs, ys := make([]int32, n), make([]int32, n)
		text := string(writeCoordinates(xs, ys, order, 1+rng.IntN(20)))
		lines := strings.Split(text, "\n")
		wantFirst, wantSecond := 0, 0
		id := fmt.Sprintf("v %d ", order[first]+1)
		for i, l := range lines {
			if strings.HasPrefix(l, id) {
				if wantFirst == 0 {
					wantFirst = i + 1
				} else {
					wantSecond = i + 1
				}
			}
		}
		_, err := ReadCoordinates(strings.NewReader(text), "dup.co")
		wantParseError(t, err, fmt.Sprintf("formats: dup.co:%d: ", wantSecond),
			fmt.Sprintf("vertex id %d given twice (first on line %d)", order[first]+1, wantFirst))
	}
}

func TestReadCoordinatesErrors(t *testing.T) {
	for _, tc := range []struct {
		text, prefix string
		fragments    []string
	}{
		{"v 1 2 3\np aux sp co 1\n", "bad.co:1: ", []string{"vertex before the p line"}},
		{"c\n", "bad.co: ", []string{`no "p aux sp co N" line`}},
		{"p aux sp co 1\np aux sp co 1\n", "bad.co:2: ", []string{"second p line (the first is line 1)"}},
		{"p sp co 1\n", "bad.co:1: ", []string{`p line must be "p aux sp co N"`}},
		{"p aux sp co -3\n", "bad.co:1: ", []string{`vertex count "-3" outside`}},
		{"p aux sp co 2\nv 3 0 0\n", "bad.co:2: ", []string{`vertex id "3" outside 1..2`}},
		{"p aux sp co 2\nv 0 0 0\n", "bad.co:2: ", []string{`vertex id "0" outside 1..2`}},
		{"p aux sp co 2\nv 1 0.5 0\n", "bad.co:2: ", []string{`x coordinate "0.5" is not an integer`}},
		{"p aux sp co 2\nv 1 0 3000000000\n", "bad.co:2: ", []string{`y coordinate "3000000000" outside the int32 range`}},
		{"p aux sp co 2\nv 1 0\n", "bad.co:2: ", []string{`vertex line must be "v ID X Y"`}},
		{"p aux sp co 2\na 1 2 3\n", "bad.co:2: ", []string{`unknown line type "a"`}},
		{"c\np aux sp co 3\nv 1 0 0\nv 3 0 0\n", "bad.co:2: ", []string{"declares 3 vertices, the file has 2 (first missing id 2)"}},
		{"p aux sp co 2\nv 1 0 0\nc\nv 1 5 5\n", "bad.co:4: ", []string{"vertex id 1 given twice (first on line 2)"}},
		{"p aux sp co 2\nv 2 0 0\nv 1 0 0\nv 2 5 5\n", "bad.co:4: ", []string{"vertex id 2 given twice (first on line 2)"}},
	} {
		_, err := ReadCoordinates(strings.NewReader(tc.text), "bad.co")
		if err == nil {
			t.Errorf("%q: no error", tc.text)
			continue
		}
		wantParseError(t, err, "formats: "+tc.prefix, tc.fragments...)
	}
}

func TestReadCoordinatesLyingHeader(t *testing.T) {
	text := "p aux sp co 2147483647\nv 2147483647 1 1\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadCoordinates(strings.NewReader(text), "lie.co")
	runtime.ReadMemStats(&after)
	wantParseError(t, err, "formats: lie.co:1: ", "declares 2147483647 vertices, the file has 1 (first missing id 1)")
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 100<<20 {
		t.Errorf("allocated %d MB for a two-line file", grew>>20)
	}
}

func FuzzReadCoordinates(f *testing.F) {
	f.Add([]byte("p aux sp co 2\nv 2 -5 7\nv 1 3 4\n"))
	f.Add([]byte("c x\n\np aux sp co 1\r\nv\t1 -2147483648 2147483647"))
	f.Add([]byte("p aux sp co 2\nv 1 0 0\nv 1 0 0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		vs, err := ReadCoordinates(bytes.NewReader(data), "fuzz.co")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T, not a *ParseError", err, err)
			}
			return
		}
		n := len(vs.X)
		if len(vs.Y) != n || len(vs.OriginalID) != n {
			t.Fatalf("lengths %d, %d, %d", n, len(vs.Y), len(vs.OriginalID))
		}
		for v, id := range vs.OriginalID {
			if id != int64(v)+1 {
				t.Fatalf("OriginalID[%d] = %d", v, id)
			}
		}
		order := make([]int, n)
		for v := range order {
			order[v] = v
		}
		// The file's own integers: geographic ones were scaled from
		// millionths of a degree to the project's 10^-7.
		xs, ys := slices.Clone(vs.X), slices.Clone(vs.Y)
		if vs.Geographic {
			for v := range xs {
				xs[v], ys[v] = xs[v]/10, ys[v]/10
			}
		}
		again, err := ReadCoordinates(bytes.NewReader(writeCoordinates(xs, ys, order, 0)), "again.co")
		if err != nil {
			t.Fatal(err)
		}
		for v := range n {
			if again.X[v] != vs.X[v] || again.Y[v] != vs.Y[v] {
				t.Fatalf("vertex %d differs after a round trip", v)
			}
		}
	})
}

// TestReadCoordinatesInDegrees: a file of longitudes and latitudes in
// millionths of a degree (the Challenge's road networks) is geographic, in
// 10^-7 degree; one coordinate beyond a longitude's range keeps the file
// planar, its integers as written.
func TestReadCoordinatesInDegrees(t *testing.T) {
	vs, err := ReadCoordinates(strings.NewReader("p aux sp co 2\nv 1 -73530767 41085396\nv 2 180000000 -90000000\n"), "ny.co")
	if err != nil {
		t.Fatal(err)
	}
	if !vs.Geographic || vs.Lon(0) != -73.530767 || vs.Lat(0) != 41.085396 || vs.Lon(1) != 180 || vs.Lat(1) != -90 {
		t.Errorf("geographic %v, (%v, %v), (%v, %v)", vs.Geographic, vs.Lon(0), vs.Lat(0), vs.Lon(1), vs.Lat(1))
	}
	vs, err = ReadCoordinates(strings.NewReader("p aux sp co 2\nv 1 -73530767 41085396\nv 2 180000001 0\n"), "plane.co")
	if err != nil {
		t.Fatal(err)
	}
	if vs.Geographic || vs.X[0] != -73530767 || vs.X[1] != 180000001 {
		t.Errorf("geographic %v, x %v", vs.Geographic, vs.X)
	}
}
