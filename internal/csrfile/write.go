package csrfile

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"unsafe"

	"github.com/pathflow/pathflow/internal/graph"
)

// ErrBigEndian is returned by Write and Open on a big-endian host, whose
// arrays cannot be the file's bytes: callers go without the reload file.
var ErrBigEndian = errors.New("csrfile: the reload file needs a little-endian host")

// littleEndian is true on hosts whose integers are laid out as the file's.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// Written describes a written reload file.
type Written struct {
	// Bytes is the file's size, SHA256 the lowercase hex SHA-256 of its
	// bytes (for a run manifest).
	Bytes  int64
	SHA256 string
	// Checksum is the file's checksum of itself, as Graph.Checksum gives
	// it back when the file is opened.
	Checksum string
}

// Write writes the reload file of the graph g, with the vertex table vs
// (nil: identity ids, no coordinates) and meta as its metadata, to w.
// vs's arrays, when set, must have g.N entries. One sequential pass over
// the arrays: O(n + m), the SHA-256 of the bytes its largest cost.
func Write(w io.Writer, g *graph.CSR, vs *graph.Vertices, meta map[string]string) (Written, error) {
	if !littleEndian {
		return Written{}, ErrBigEndian
	}
	n := int64(g.N)
	if int64(len(g.Offsets)) != n+1 || len(g.Weights) != len(g.Targets) || g.Offsets[n] != int64(len(g.Targets)) {
		return Written{}, errors.New("csrfile: inconsistent CSR arrays")
	}
	h := &header{n: n, m: int64(len(g.Targets)), blockBytes: BlockBytes}
	if vs != nil && vs.OriginalID != nil {
		if int64(len(vs.OriginalID)) != n {
			return Written{}, fmt.Errorf("csrfile: %d original ids for %d vertices", len(vs.OriginalID), n)
		}
		h.flags |= flagOriginal
	}
	if vs.HasCoordinates() {
		if int64(len(vs.X)) != n || int64(len(vs.Y)) != n {
			return Written{}, fmt.Errorf("csrfile: %d x and %d y coordinates for %d vertices", len(vs.X), len(vs.Y), n)
		}
		h.flags |= flagCoordinates
	}
	metaJSON, err := json.Marshal(meta) // keys sorted: the same graph gives the same bytes
	if err != nil {
		return Written{}, fmt.Errorf("csrfile: metadata: %w", err)
	}
	h.metaBytes = uint32(len(metaJSON))
	l := layoutOf(h)
	h.fileBytes = l.fileBytes
	fixed := h.encode()
	h.crc = headerCRC(fixed, metaJSON)
	fixed = h.encode()

	cw := &checkedWriter{w: bufio.NewWriterSize(w, 1<<20), digest: sha256.New(), dataStart: l.data, blockBytes: h.blockBytes}
	cw.write(fixed)
	cw.write(metaJSON)
	parts := []struct {
		at    int64
		bytes []byte
	}{
		{l.offsets, bytesOf(g.Offsets)},
		{l.targets, bytesOf(g.Targets)},
		{l.weights, bytesOf(g.Weights)},
	}
	for _, p := range parts {
		cw.padTo(p.at)
		cw.write(p.bytes)
	}
	cw.padTo(l.sources)
	writeSources(cw, g)
	if h.flags&flagOriginal != 0 {
		cw.padTo(l.original)
		cw.write(bytesOf(vs.OriginalID))
	}
	if h.flags&flagCoordinates != 0 {
		cw.padTo(l.x)
		cw.write(bytesOf(vs.X))
		cw.padTo(l.y)
		cw.write(bytesOf(vs.Y))
	}
	cw.padTo(l.dataEnd)
	cw.endBlock()
	table := make([]byte, 4*len(cw.crcs))
	for i, c := range cw.crcs {
		binary.LittleEndian.PutUint32(table[4*i:], c)
	}
	cw.write(table)
	if cw.err == nil {
		cw.err = cw.w.Flush()
	}
	if cw.err != nil {
		return Written{}, fmt.Errorf("csrfile: %w", cw.err)
	}
	if cw.pos != l.fileBytes || int64(len(cw.crcs)) != l.checkCount {
		return Written{}, fmt.Errorf("csrfile: wrote %d bytes and %d checksums, the layout says %d and %d", cw.pos, len(cw.crcs), l.fileBytes, l.checkCount)
	}
	return Written{Bytes: cw.pos, SHA256: hex.EncodeToString(cw.digest.Sum(nil)), Checksum: fileChecksum(fixed, table)}, nil
}

// writeSources writes the tail of every arc, row by row, from g's offsets.
func writeSources(cw *checkedWriter, g *graph.CSR) {
	buf := make([]int32, 0, 1<<16)
	for u := range g.N {
		for range g.Offsets[u+1] - g.Offsets[u] {
			if len(buf) == cap(buf) {
				cw.write(bytesOf(buf))
				buf = buf[:0]
			}
			buf = append(buf, u)
		}
	}
	cw.write(bytesOf(buf))
}

// checkedWriter writes the file's bytes while hashing them (SHA-256 of
// the whole file) and taking the CRC-32C of each block of the data. The
// first error sticks.
type checkedWriter struct {
	w          *bufio.Writer
	digest     hash.Hash
	dataStart  int64
	blockBytes int64
	pos        int64
	crc        uint32 // of the current block so far
	crcs       []uint32
	err        error
}

func (cw *checkedWriter) write(p []byte) {
	if cw.err != nil {
		return
	}
	for len(p) > 0 {
		chunk, checked := p, false
		switch {
		case cw.dataStart < 0: // past the data
		case cw.pos < cw.dataStart:
			chunk = p[:min(int64(len(p)), cw.dataStart-cw.pos)]
		default: // stop at the end of the current block
			inBlock := (cw.pos - cw.dataStart) % cw.blockBytes
			chunk, checked = p[:min(int64(len(p)), cw.blockBytes-inBlock)], true
		}
		if _, err := cw.w.Write(chunk); err != nil {
			cw.err = err
			return
		}
		cw.digest.Write(chunk)
		cw.pos += int64(len(chunk))
		if checked {
			cw.crc = crc32.Update(cw.crc, castagnoli, chunk)
			if (cw.pos-cw.dataStart)%cw.blockBytes == 0 {
				cw.crcs = append(cw.crcs, cw.crc)
				cw.crc = 0
			}
		}
		p = p[len(chunk):]
	}
}

// endBlock closes the last, partial block of the data; what follows is
// not checked.
func (cw *checkedWriter) endBlock() {
	if (cw.pos-cw.dataStart)%cw.blockBytes != 0 {
		cw.crcs = append(cw.crcs, cw.crc)
	}
	cw.crc, cw.dataStart = 0, -1
}

// padTo writes zero bytes up to position at.
func (cw *checkedWriter) padTo(at int64) {
	var zeros [alignment]byte
	for cw.err == nil && cw.pos < at {
		cw.write(zeros[:min(at-cw.pos, alignment)])
	}
}

// bytesOf views an array of fixed-size integers as its bytes, without a
// copy (the host is little-endian).
func bytesOf[T int32 | int64](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}
