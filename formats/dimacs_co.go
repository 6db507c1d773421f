package formats

import (
	"io"
	"math"
	"slices"
	"sort"

	"github.com/pathflow/pathflow/internal/graph"
)

// ReadCoordinates reads a 9th DIMACS Challenge coordinate file (".co"),
// plain or gzip-compressed, from r; name is used in error messages only.
// The result has X[v], Y[v] for the vertex with file id v+1 and
// OriginalID[v] = v+1. Coordinates that are all within a longitude's and
// a latitude's range in millionths of a degree, the Challenge's unit, are
// read as geographic (Geographic, in the project's 10^-7 degree, so that
// tables write them as lon and lat); any other stay the file's integers.
//
// The input must hold exactly one "p aux sp co N" line (0 <= N <= 2^31-1)
// before any vertex, then "v ID X Y" lines with ID in 1..N and int32
// coordinates, every id exactly once. Lines starting with 'c' are
// comments. Every problem is reported as a *ParseError naming the line.
//
// O(size of the input) time. Memory is bounded by the input, not by N: the
// lines are kept in file order and placed by id once the count is checked,
// so a header claiming 2^31 vertices over a short file is refused cheaply.
// A repeated id is reported at its second line, after the whole input is
// read.
func ReadCoordinates(r io.Reader, name string) (*graph.Vertices, error) {
	// The shortest vertex line, "v 1 0 0\n", has 8 bytes.
	in, limit, err := openText(r, name, 8)
	if err != nil {
		return nil, err
	}
	c := &coReader{name: name, limit: limit}
	err = scanLines(newLineChunks(in, chunkSize), name, &c.line, func(chunk []byte) error {
		return eachLine(chunk, &c.line, c.parseLine)
	})
	if err != nil {
		return nil, err
	}
	if c.pLine == 0 {
		return nil, &ParseError{File: name, Msg: `no "p aux sp co N" line`}
	}
	return c.build()
}

// coReader is the state of ReadCoordinates. Vertex lines are kept in an
// arcArrays as (id-1, x, y) triples in file order; repeated and missing ids
// are found once the count is known, which bounds every allocation by the
// input (see build).
type coReader struct {
	name   string
	line   int64
	pLine  int64
	n      int32
	coords arcArrays
	limit  int64 // preallocation bound
	// others maps vertex entries back to their lines: one run per group of
	// consecutive other lines (comments, blank lines, the p line).
	others []lineRun
}

// lineRun records that the other lines up to the run's end number lines in
// all, and that entries vertex lines came before the run.
type lineRun struct {
	entries int
	lines   int64
}

// noteOther records a line that is not a vertex line.
func (c *coReader) noteOther() {
	k := c.coords.k
	if last := len(c.others) - 1; last >= 0 && c.others[last].entries == k {
		c.others[last].lines++
		return
	}
	total := int64(1)
	if len(c.others) > 0 {
		total += c.others[len(c.others)-1].lines
	}
	c.others = append(c.others, lineRun{entries: k, lines: total})
}

// entryLine returns the line of the i-th vertex line (0-based).
func (c *coReader) entryLine(i int) int64 {
	k := sort.Search(len(c.others), func(j int) bool { return c.others[j].entries > i })
	before := int64(0)
	if k > 0 {
		before = c.others[k-1].lines
	}
	return int64(i) + 1 + before
}

func (c *coReader) parseLine(line []byte) error {
	if len(line) == 0 || line[0] == 'c' {
		c.noteOther()
		return nil
	}
	var store [6][]byte
	f, fits := splitFields(line, store[:])
	switch string(f[0]) {
	case "p":
		c.noteOther()
		return c.problemLine(f, fits)
	case "v":
		return c.vertexLine(f, fits)
	}
	return lineErr(c.name, c.line, "unknown line type %s: want c, p or v", quote(f[0]))
}

func (c *coReader) problemLine(f [][]byte, fits bool) error {
	if c.pLine != 0 {
		return lineErr(c.name, c.line, "second p line (the first is line %d)", c.pLine)
	}
	if !fits || len(f) != 5 || string(f[1]) != "aux" || string(f[2]) != "sp" || string(f[3]) != "co" {
		return lineErr(c.name, c.line, `p line must be "p aux sp co N"`)
	}
	n, st := parseInt(f[4])
	if st == intSyntax {
		return lineErr(c.name, c.line, "vertex count %s is not an integer", quote(f[4]))
	}
	if st == intRange || n < 0 || n > math.MaxInt32 {
		return lineErr(c.name, c.line, "vertex count %s outside 0..%d", quote(f[4]), math.MaxInt32)
	}
	c.pLine, c.n = c.line, int32(n)
	c.coords = newArcArrays(n, c.limit)
	return nil
}

func (c *coReader) vertexLine(f [][]byte, fits bool) error {
	if c.pLine == 0 {
		return lineErr(c.name, c.line, "vertex before the p line")
	}
	if !fits || len(f) != 4 {
		return lineErr(c.name, c.line, `vertex line must be "v ID X Y"`)
	}
	id, st := parseInt(f[1])
	if st == intSyntax {
		return lineErr(c.name, c.line, "vertex id %s is not an integer", quote(f[1]))
	}
	if st == intRange || id < 1 || id > int64(c.n) {
		return lineErr(c.name, c.line, "vertex id %s outside 1..%d", quote(f[1]), c.n)
	}
	var xy [2]int32
	for k, what := range [2]string{"x", "y"} {
		v, st := parseInt32(f[2+k])
		if st == intSyntax {
			return lineErr(c.name, c.line, "%s coordinate %s is not an integer", what, quote(f[2+k]))
		}
		if st == intRange {
			return lineErr(c.name, c.line, "%s coordinate %s outside the int32 range", what, quote(f[2+k]))
		}
		xy[k] = v
	}
	c.coords.add(int32(id-1), xy[0], xy[1])
	return nil
}

// build checks that every id in 1..N has exactly one line and places the
// coordinates by id. Each bitmap it makes has at most one bit per vertex
// line read, so a header claiming 2^31 vertices costs nothing.
func (c *coReader) build() (*graph.Vertices, error) {
	k := c.coords.k
	ids := c.coords.src[:k]
	if int64(k) > int64(c.n) {
		// All ids are in 1..N, so some id repeats.
		return nil, c.repeated(ids)
	}
	if k < int(c.n) {
		// The smallest missing id is at most k+1.
		seen := newBitmap(k + 1)
		for _, v := range ids {
			if int(v) <= k {
				seen.set(int(v))
			}
		}
		missing := 0
		for seen.has(missing) {
			missing++
		}
		return nil, lineErr(c.name, c.pLine, "the p line declares %d vertices, the file has %d (first missing id %d)",
			c.n, k, missing+1)
	}
	if err := c.repeated(ids); err != nil {
		return nil, err
	}
	// N lines, ids in 1..N, none repeated: each slot is written once.
	vs := &graph.Vertices{OriginalID: make([]int64, k), X: make([]int32, k), Y: make([]int32, k)}
	xs, ys := c.coords.dst[:k], c.coords.wt[:k]
	scale := int32(1)
	if vs.Geographic = inDegrees(xs, ys); vs.Geographic {
		scale = graph.UnitsPerDegree / microdegrees
	}
	for i, v := range ids {
		vs.X[v], vs.Y[v] = xs[i]*scale, ys[i]*scale
		vs.OriginalID[v] = int64(v) + 1
	}
	return vs, nil
}

// microdegrees is the DIMACS coordinates' unit per degree: the 9th
// Challenge's road networks give longitude and latitude in millionths of
// a degree.
const microdegrees = 1_000_000

// inDegrees reports whether coordinates (x, y) in millionths of a degree
// are all a longitude and a latitude (|x| <= 180, |y| <= 90 degrees): a
// file that holds them is read as the Challenge's geographic coordinates.
// Any other keeps its planar integers.
func inDegrees(xs, ys []int32) bool {
	for i := range xs {
		if x, y := xs[i], ys[i]; x < -180*microdegrees || x > 180*microdegrees || y < -90*microdegrees || y > 90*microdegrees {
			return false
		}
	}
	return len(xs) > 0
}

// repeated returns an error naming the first line whose id an earlier line
// already had, or nil. ids are in 0..N-1.
func (c *coReader) repeated(ids []int32) error {
	seen := newBitmap(int(c.n))
	for i, v := range ids {
		if seen.has(int(v)) {
			first := slices.Index(ids, v)
			return lineErr(c.name, c.entryLine(i), "vertex id %d given twice (first on line %d)", int64(v)+1, c.entryLine(first))
		}
		seen.set(int(v))
	}
	return nil
}

// bitmap is a fixed-size set of small non-negative integers.
type bitmap []uint64

func newBitmap(size int) bitmap { return make(bitmap, (size+63)/64) }

func (b bitmap) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

func (b bitmap) set(i int) { b[i/64] |= 1 << (i % 64) }
