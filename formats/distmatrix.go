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
