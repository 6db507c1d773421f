package formats

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"

	"github.com/pathflow/pathflow/internal/graph"
)

// ReadDIMACS reads a 9th DIMACS Implementation Challenge shortest-path graph
// (".gr"), plain or gzip-compressed, from r; name is used in error messages
// only. Vertex ids 1..N of the file become 0..N-1 (see DIMACSVertices).
// Arcs keep the file order, self-loops and parallel arcs included (see
// Simplify).
//
// The input must hold exactly one "p sp N M" line before any arc, with
// 0 <= N <= 2^31-1 and M >= 0, then "a U V W" lines with 1 <= U, V <= N and
// an int32 weight W; their number must be M. Lines starting with 'c' are
// comments; blank lines and trailing spaces, tabs and carriage returns are
// ignored. Every problem is reported as a *ParseError naming the line.
//
// The arc lines are parsed on GOMAXPROCS cores, in chunks of whole lines
// whose arcs are joined in file order: the result does not depend on the
// core count. O(size of the input) time; memory is the 12 bytes per arc of
// the result plus about 1 MiB per core.
func ReadDIMACS(r io.Reader, name string) (*graph.EdgeList, error) {
	return readDIMACS(r, name, runtime.GOMAXPROCS(0), chunkSize)
}

// readDIMACS is ReadDIMACS with the arc lines after the p line parsed by
// workers goroutines, in chunks of about chunk bytes.
func readDIMACS(r io.Reader, name string, workers, chunk int) (*graph.EdgeList, error) {
	// The shortest arc line, "a 1 1 0\n", has 8 bytes.
	in, limit, err := openText(r, name, 8)
	if err != nil {
		return nil, err
	}
	d := &dimacsReader{name: name, limit: limit, exact: sizeKnown(r, in)}
	chunks := newLineChunks(in, chunk)
	if workers > 1 {
		err = d.scanParallel(chunks, workers)
	} else {
		err = scanLines(chunks, name, &d.line, d.scanChunk)
	}
	if err != nil {
		return nil, err
	}
	if d.pLine == 0 {
		return nil, &ParseError{File: name, Msg: `no "p sp N M" line`}
	}
	if int64(d.arcs.k) != d.m {
		return nil, lineErr(name, d.pLine, "the p line declares %d arcs, the file has %d", d.m, d.arcs.k)
	}
	src, dst, wt := d.arcs.trimmed()
	return &graph.EdgeList{N: d.n, Src: src, Dst: dst, Weight: wt}, nil
}

// DIMACSVertices returns the metadata of a DIMACS graph of n vertices:
// OriginalID[v] = v+1, the file's 1-based id. ReadDIMACS does not build it,
// since most callers never need the 8 bytes per vertex.
func DIMACSVertices(n int32) *graph.Vertices {
	ids := make([]int64, max(n, 0))
	adviseHugePages(ids)
	for v := range ids {
		ids[v] = int64(v) + 1
	}
	return &graph.Vertices{OriginalID: ids}
}

// dimacsReader is the state of ReadDIMACS between chunks.
type dimacsReader struct {
	name  string
	line  int64 // lines read so far
	pLine int64 // line of the p line; 0 before it
	n     int32
	m     int64
	arcs  arcArrays
	limit int64 // preallocation bound
	// exact says that limit bounds the arc lines the input can hold (a
	// plain input of known size), so a p line declaring more is refused
	// before the arcs are read.
	exact bool
}

// scanChunk parses a run of whole lines. Well-formed arc lines take the fast
// path (fastArc), with the arc arrays and counters held in locals; anything
// else, including every line with a problem, goes through slowLine, which
// accepts a superset of the fast path and gives the precise error.
func (d *dimacsReader) scanChunk(b []byte) error {
	a := &d.arcs
	src, dst, wt, k := a.src, a.dst, a.wt, a.k
	// Before the p line n stays 0, so every arc fails the range check of
	// the fast path and slowLine reports it.
	n := uint64(0)
	if d.pLine != 0 {
		n = uint64(d.n)
	}
	line := d.line
	for i := 0; i < len(b); {
		line++
		if b[i] == 'a' && k < len(src) {
			if u, v, w, next, ok := fastArc(b, i+1, n); ok {
				src[k], dst[k], wt[k] = int32(u-1), int32(v-1), w
				k++
				i = next
				continue
			}
		}
		a.k, d.line = k, line
		next, err := d.slowLine(b, i)
		if err != nil {
			return err
		}
		src, dst, wt, k = a.src, a.dst, a.wt, a.k
		if d.pLine != 0 {
			n = uint64(d.n)
		}
		i = next
	}
	a.k, d.line = k, line
	return nil
}

// fastArc parses the rest of an arc line, " U V W\n", starting at j, just
// after the 'a'. It accepts only lines that slowLine would accept with the
// same result: U and V in 1..n, W in int32. b must end in '\n', which stops
// every scan loop, so no index leaves b.
func fastArc(b []byte, j int, n uint64) (u, v uint64, w int32, next int, ok bool) {
	if !isBlank(b[j]) {
		return
	}
	for j++; isBlank(b[j]); j++ {
	}
	s := j
	for ; b[j]-'0' <= 9; j++ {
		u = u*10 + uint64(b[j]-'0')
	}
	// At most 10 digits cannot overflow; u == 0 wraps u-1 past n.
	if j == s || j-s > 10 || u-1 >= n || !isBlank(b[j]) {
		return
	}
	for j++; isBlank(b[j]); j++ {
	}
	s = j
	for ; b[j]-'0' <= 9; j++ {
		v = v*10 + uint64(b[j]-'0')
	}
	if j == s || j-s > 10 || v-1 >= n || !isBlank(b[j]) {
		return
	}
	for j++; isBlank(b[j]); j++ {
	}
	neg := b[j] == '-'
	if neg {
		j++
	}
	s = j
	var x uint64
	for ; b[j]-'0' <= 9; j++ {
		x = x*10 + uint64(b[j]-'0')
	}
	if j == s || j-s > 10 {
		return
	}
	switch {
	case neg && x <= 1<<31:
		w = int32(-int64(x))
	case !neg && x <= math.MaxInt32:
		w = int32(x)
	default:
		return
	}
	for ; isBlank(b[j]) || b[j] == '\r'; j++ {
	}
	if b[j] != '\n' {
		return
	}
	return u, v, w, j + 1, true
}

// slowLine handles the line starting at b[i], number d.line: comments, the
// p line, blank lines, arcs the fast path passed on, and every error. It
// returns the index of the next line.
func (d *dimacsReader) slowLine(b []byte, i int) (int, error) {
	end := i + bytes.IndexByte(b[i:], '\n')
	line := trimLine(b[i:end])
	next := end + 1
	if len(line) == 0 || line[0] == 'c' {
		return next, nil
	}
	var store [5][]byte
	f, fits := splitFields(line, store[:])
	switch {
	case string(f[0]) == "p":
		return next, d.problemLine(f, fits)
	case string(f[0]) == "a":
		return next, d.arcLine(f, fits)
	}
	return next, lineErr(d.name, d.line, "unknown line type %s: want c, p or a", quote(f[0]))
}

func (d *dimacsReader) problemLine(f [][]byte, fits bool) error {
	if d.pLine != 0 {
		return lineErr(d.name, d.line, "second p line (the first is line %d)", d.pLine)
	}
	if !fits || len(f) != 4 || string(f[1]) != "sp" {
		return lineErr(d.name, d.line, `p line must be "p sp N M"`)
	}
	n, st := parseInt(f[2])
	if st == intSyntax {
		return lineErr(d.name, d.line, "vertex count %s is not an integer", quote(f[2]))
	}
	if st == intRange || n < 0 || n > math.MaxInt32 {
		return lineErr(d.name, d.line, "vertex count %s outside 0..%d", quote(f[2]), math.MaxInt32)
	}
	m, st := parseInt(f[3])
	if st == intSyntax {
		return lineErr(d.name, d.line, "arc count %s is not an integer", quote(f[3]))
	}
	if st == intRange || m < 0 {
		return lineErr(d.name, d.line, "arc count %s outside 0..%d", quote(f[3]), int64(math.MaxInt64))
	}
	if d.exact && m > d.limit {
		return lineErr(d.name, d.line, "the p line declares %d arcs, more than the %d lines of 8 bytes or more (\"a 1 1 0\") the input's size can hold",
			m, d.limit)
	}
	d.pLine, d.n, d.m = d.line, int32(n), m
	d.arcs = newArcArrays(m, d.limit)
	return nil
}

func (d *dimacsReader) arcLine(f [][]byte, fits bool) error {
	if d.pLine == 0 {
		return lineErr(d.name, d.line, "arc before the p line")
	}
	if !fits || len(f) != 4 {
		return lineErr(d.name, d.line, `arc line must be "a U V W"`)
	}
	var ends [2]int32
	for e, what := range [2]string{"source", "target"} {
		id, st := parseInt(f[1+e])
		if st == intSyntax {
			return lineErr(d.name, d.line, "%s %s is not an integer", what, quote(f[1+e]))
		}
		if st == intRange || id < 1 || id > int64(d.n) {
			return lineErr(d.name, d.line, "%s %s outside 1..%d", what, quote(f[1+e]), d.n)
		}
		ends[e] = int32(id - 1)
	}
	w, st := parseInt32(f[3])
	if st == intSyntax {
		return lineErr(d.name, d.line, "weight %s is not an integer", quote(f[3]))
	}
	if st == intRange {
		return lineErr(d.name, d.line, "weight %s outside the int32 range", quote(f[3]))
	}
	d.arcs.add(ends[0], ends[1], w)
	return nil
}

// WriteDIMACS writes e as a DIMACS ".gr" text that ReadDIMACS reads back
// into the same graph: a p line, then one arc line per arc in order, with
// ids shifted to 1-based. O(M) time, constant memory.
func WriteDIMACS(w io.Writer, e *graph.EdgeList) error {
	if err := e.Validate(); err != nil {
		return fmt.Errorf("formats: writing DIMACS: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	line := make([]byte, 0, 64)
	line = append(line, "p sp "...)
	line = strconv.AppendInt(line, int64(e.N), 10)
	line = append(line, ' ')
	line = strconv.AppendInt(line, int64(e.M()), 10)
	line = append(line, '\n')
	if _, err := bw.Write(line); err != nil {
		return fmt.Errorf("formats: writing DIMACS: %w", err)
	}
	for i := range e.Src {
		line = append(line[:0], 'a', ' ')
		line = strconv.AppendInt(line, int64(e.Src[i])+1, 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(e.Dst[i])+1, 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(e.Weight[i]), 10)
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return fmt.Errorf("formats: writing DIMACS: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("formats: writing DIMACS: %w", err)
	}
	return nil
}
