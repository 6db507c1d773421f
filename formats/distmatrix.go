package formats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// InferN, passed as n to ReadDistanceMatrix, asks for the vertex count to
// be inferred from the input size (n*n*4 bytes).
const InferN int32 = -1

// distBlock is how many entries are read or written per I/O call.
const distBlock = 16384

// ReadDistanceMatrix reads a distance matrix file: n*n little-endian int32
// entries in row-major order (row s holds the distances from s), with no
// header; graph.Inf32 means "no path". Every entry must lie in
// [-Inf32, Inf32]: anything else cannot come from a valid matrix and
// usually means a wrong n or byte order. name is used in error messages
// only.
//
// With n >= 0 the input must hold exactly n*n entries. With n = InferN it
// must hold a square number of entries; n is its root. The result is a
// Matrix with Dist32 set and no Parent.
//
// Every problem is reported as a *BinaryError with the byte offset and, for
// entries, the row and column. O(n^2) time; memory is the result (plus,
// when n is inferred from a reader of unknown size, the growth of a slice).
func ReadDistanceMatrix(r io.Reader, name string, n int32) (*paths.Matrix, error) {
	if n < InferN {
		return nil, fmt.Errorf("formats: %s: negative vertex count %d", name, n)
	}
	total := int64(-1)
	capacity := preallocLimit(r, r, 4)
	if n >= 0 {
		total = int64(n) * int64(n)
		capacity = min(total, capacity)
	}
	dist := make([]int32, 0, capacity)
	buf := make([]byte, 4*distBlock)
	var offset int64
	for total < 0 || int64(len(dist)) < total {
		want := int64(distBlock)
		if total >= 0 {
			want = min(want, total-int64(len(dist)))
		}
		got, err := io.ReadFull(r, buf[:4*want])
		if err != nil && !isShort(err) {
			return nil, binErr(name, offset+int64(got), "%v", err)
		}
		for i := 0; i+4 <= got; i += 4 {
			d := int32(binary.LittleEndian.Uint32(buf[i:]))
			if d > graph.Inf32 || d < -graph.Inf32 {
				return nil, binErr(name, offset, "entry %s is %d, outside [-%d, %d]",
					entryName(int64(len(dist)), n), d, graph.Inf32, graph.Inf32)
			}
			dist = append(dist, d)
			offset += 4
		}
		if err == nil {
			continue
		}
		if total >= 0 {
			return nil, binErr(name, offset+int64(got%4), "input ends after %d of the %d entries of a %d x %d matrix",
				len(dist), total, n, n)
		}
		if got%4 != 0 {
			return nil, binErr(name, offset, "input size %d is not a multiple of 4", offset+int64(got%4))
		}
		break
	}
	if total >= 0 {
		var extra [1]byte
		if got, err := io.ReadFull(r, extra[:]); got > 0 {
			return nil, binErr(name, offset, "data after the %d entries of a %d x %d matrix", total, n, n)
		} else if err != nil && !errors.Is(err, io.EOF) {
			return nil, binErr(name, offset, "%v", err)
		}
	} else {
		root := int64(math.Sqrt(float64(len(dist))))
		for root*root > int64(len(dist)) {
			root--
		}
		for (root+1)*(root+1) <= int64(len(dist)) {
			root++
		}
		if root*root != int64(len(dist)) {
			return nil, binErr(name, offset, "%d entries: not a square matrix", len(dist))
		}
		if root > math.MaxInt32 {
			return nil, binErr(name, 0, "%d x %d matrix: more than 2^31-1 vertices", root, root)
		}
		n = int32(root)
	}
	if int64(cap(dist)) > int64(len(dist))+int64(len(dist))/4 {
		dist = append([]int32(nil), dist...)
	}
	return &paths.Matrix{N: n, Dist32: dist}, nil
}

// entryName says which entry index i is: "(row, column)" when n is known.
func entryName(i int64, n int32) string {
	if n <= 0 {
		return fmt.Sprintf("%d", i)
	}
	return fmt.Sprintf("(%d, %d)", i/int64(n), i%int64(n))
}

// WriteDistanceMatrix writes m in the format read by ReadDistanceMatrix.
// Int64 distances are converted: paths.Unreachable becomes graph.Inf32; any
// other distance outside [-Inf32, Inf32) cannot be represented and is an
// error. O(N^2) time, one row of extra memory.
func WriteDistanceMatrix(w io.Writer, m *paths.Matrix) error {
	size := int64(m.N) * int64(m.N)
	switch {
	case m.N < 0:
		return fmt.Errorf("formats: writing distance matrix: negative vertex count %d", m.N)
	case m.Dist32 != nil && int64(len(m.Dist32)) != size,
		m.Dist32 == nil && int64(len(m.Dist64)) != size:
		return fmt.Errorf("formats: writing distance matrix: %d x %d matrix with a distance array of the wrong length", m.N, m.N)
	}
	return WriteDistanceRows(w, m.N, func(s int32, row []int32) error {
		start := int64(s) * int64(m.N)
		if m.Dist32 != nil {
			copy(row, m.Dist32[start:start+int64(m.N)])
			return nil
		}
		for t, d := range m.Dist64[start : start+int64(m.N)] {
			switch {
			case d == paths.Unreachable:
				row[t] = graph.Inf32
			case d >= int64(graph.Inf32) || d < -int64(graph.Inf32):
				return fmt.Errorf("distance from %d to %d is %d, beyond the int32 format", s, t, d)
			default:
				row[t] = int32(d)
			}
		}
		return nil
	})
}

// WriteDistanceRows streams an n x n distance matrix to w row by row:
// row(s, dist) fills dist (length n) with the distances from s, using
// graph.Inf32 for "no path". Rows are requested in order 0..n-1, so a
// caller can compute each one just in time. An error from row stops the
// write and is returned wrapped; so is an entry outside [-Inf32, Inf32].
// O(n^2) time, one row of memory.
func WriteDistanceRows(w io.Writer, n int32, row func(s int32, dist []int32) error) error {
	if n < 0 {
		return fmt.Errorf("formats: writing distance matrix: negative vertex count %d", n)
	}
	dist := make([]int32, n)
	buf := make([]byte, 4*min(int(n), distBlock))
	for s := int32(0); s < n; s++ {
		if err := row(s, dist); err != nil {
			return fmt.Errorf("formats: writing distance matrix: row %d: %w", s, err)
		}
		for start := 0; start < len(dist); start += distBlock {
			part := dist[start:min(start+distBlock, len(dist))]
			for i, d := range part {
				if d > graph.Inf32 || d < -graph.Inf32 {
					return fmt.Errorf("formats: writing distance matrix: entry (%d, %d) is %d, outside [-%d, %d]",
						s, start+i, d, graph.Inf32, graph.Inf32)
				}
				binary.LittleEndian.PutUint32(buf[4*i:], uint32(d))
			}
			if _, err := w.Write(buf[:4*len(part)]); err != nil {
				return fmt.Errorf("formats: writing distance matrix: %w", err)
			}
		}
	}
	return nil
}
