package formats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/pathflow/pathflow/internal/graph"
)

// binaryHeaderSize and tripleSize are the byte sizes of the binary graph
// format's parts.
const (
	binaryHeaderSize = 8
	tripleSize       = 12
)

// binaryBlock is how many triples are read or written per I/O call.
const binaryBlock = 8192

// ReadBinary reads the binary graph format from r: little-endian int32 n
// (vertices), int32 m (arcs), then m triples of int32 source, target and
// weight, with 0-based endpoints in 0..n-1, and nothing after. name is used
// in error messages only. The format is not gzip-detected: a vertex count
// may legitimately start with the bytes 1f 8b.
//
// Every problem is reported as a *BinaryError with the byte offset and,
// for arcs, the triple index; a short input says how many of the m triples
// it holds. O(m) time; memory is the result plus a buffer of at most
// 96 KiB, never more than the input supports whatever m claims.
func ReadBinary(r io.Reader, name string) (*graph.EdgeList, error) {
	var head [binaryHeaderSize]byte
	if got, err := io.ReadFull(r, head[:]); err != nil {
		if isShort(err) {
			return nil, binErr(name, int64(got), "header needs %d bytes, the input has %d", binaryHeaderSize, got)
		}
		return nil, binErr(name, int64(got), "%v", err)
	}
	n := int32(binary.LittleEndian.Uint32(head[0:]))
	m := int32(binary.LittleEndian.Uint32(head[4:]))
	if n < 0 {
		return nil, binErr(name, 0, "negative vertex count %d", n)
	}
	if m < 0 {
		return nil, binErr(name, 4, "negative arc count %d", m)
	}
	limit := preallocLimit(r, r, tripleSize)
	arcs := newArcArrays(int64(m), limit)
	buf := make([]byte, min(int64(m), limit, binaryBlock)*tripleSize)
	for arcs.k < int(m) {
		want := min(int(m)-arcs.k, len(buf)/tripleSize)
		got, err := io.ReadFull(r, buf[:want*tripleSize])
		if err != nil && !isShort(err) {
			return nil, binErr(name, tripleOffset(arcs.k)+int64(got), "%v", err)
		}
		for i := 0; i+tripleSize <= got; i += tripleSize {
			u := int32(binary.LittleEndian.Uint32(buf[i:]))
			v := int32(binary.LittleEndian.Uint32(buf[i+4:]))
			w := int32(binary.LittleEndian.Uint32(buf[i+8:]))
			if u < 0 || u >= n {
				return nil, binErr(name, tripleOffset(arcs.k), "triple %d: source %d outside 0..%d", arcs.k, u, n-1)
			}
			if v < 0 || v >= n {
				return nil, binErr(name, tripleOffset(arcs.k)+4, "triple %d: target %d outside 0..%d", arcs.k, v, n-1)
			}
			arcs.add(u, v, w)
		}
		if err != nil {
			return nil, binErr(name, tripleOffset(arcs.k)+int64(got%tripleSize),
				"input ends after %d of the %d triples the header declares", arcs.k, m)
		}
	}
	var extra [1]byte
	if got, err := io.ReadFull(r, extra[:]); got > 0 {
		return nil, binErr(name, tripleOffset(arcs.k), "data after the %d triples the header declares", m)
	} else if err != nil && !errors.Is(err, io.EOF) {
		return nil, binErr(name, tripleOffset(arcs.k), "%v", err)
	}
	src, dst, wt := arcs.trimmed()
	return &graph.EdgeList{N: n, Src: src, Dst: dst, Weight: wt}, nil
}

func tripleOffset(k int) int64 { return binaryHeaderSize + int64(k)*tripleSize }

func isShort(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// WriteBinary writes e in the binary graph format read by ReadBinary. e must
// be valid and have at most 2^31-1 arcs. O(M) time, constant memory.
func WriteBinary(w io.Writer, e *graph.EdgeList) error {
	if err := e.Validate(); err != nil {
		return fmt.Errorf("formats: writing binary graph: %w", err)
	}
	if e.M() > math.MaxInt32 {
		return fmt.Errorf("formats: writing binary graph: %d arcs do not fit the int32 count", e.M())
	}
	buf := make([]byte, binaryBlock*tripleSize)
	binary.LittleEndian.PutUint32(buf[0:], uint32(e.N))
	binary.LittleEndian.PutUint32(buf[4:], uint32(e.M()))
	if _, err := w.Write(buf[:binaryHeaderSize]); err != nil {
		return fmt.Errorf("formats: writing binary graph: %w", err)
	}
	for start := 0; start < e.M(); start += binaryBlock {
		end := min(start+binaryBlock, e.M())
		at := 0
		for i := start; i < end; i++ {
			binary.LittleEndian.PutUint32(buf[at:], uint32(e.Src[i]))
			binary.LittleEndian.PutUint32(buf[at+4:], uint32(e.Dst[i]))
			binary.LittleEndian.PutUint32(buf[at+8:], uint32(e.Weight[i]))
			at += tripleSize
		}
		if _, err := w.Write(buf[:at]); err != nil {
			return fmt.Errorf("formats: writing binary graph: %w", err)
		}
	}
	return nil
}
