package mapfile

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"hash/crc32"
	"io"
)

// Written describes a written mapped file.
type Written struct {
	// Bytes is the file's size, SHA256 the lowercase hex SHA-256 of its
	// bytes (for a run manifest).
	Bytes  int64
	SHA256 string
	// Checksum is the file's checksum of itself (FileChecksum), as its
	// opener gives it back.
	Checksum string
}

// Writer writes a mapped file's bytes in order while hashing them
// (SHA-256 of the whole file) and taking the CRC-32C of each block of the
// data. The first error sticks; Finish reports it.
type Writer struct {
	w          *bufio.Writer
	digest     hash.Hash
	dataStart  int64
	blockBytes int64
	pos        int64
	crc        uint32 // of the current block so far
	crcs       []uint32
	err        error
}

// NewWriter writes to w a file whose checked data starts at dataStart,
// in blocks of blockBytes.
func NewWriter(w io.Writer, dataStart, blockBytes int64) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 1<<20), digest: sha256.New(), dataStart: dataStart, blockBytes: blockBytes}
}

// Write writes p at the current position.
func (cw *Writer) Write(p []byte) {
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

// PadTo writes zero bytes up to position at.
func (cw *Writer) PadTo(at int64) {
	var zeros [Alignment]byte
	for cw.err == nil && cw.pos < at {
		cw.Write(zeros[:min(at-cw.pos, Alignment)])
	}
}

// Finish ends the data at the current position (its last block may be
// partial), writes the table of block checksums after it and flushes. It
// returns the table, the file's size and SHA-256, or the first error.
func (cw *Writer) Finish() (table []byte, bytes int64, sha string, err error) {
	if (cw.pos-cw.dataStart)%cw.blockBytes != 0 {
		cw.crcs = append(cw.crcs, cw.crc)
	}
	cw.crc, cw.dataStart = 0, -1
	table = make([]byte, 4*len(cw.crcs))
	for i, c := range cw.crcs {
		binary.LittleEndian.PutUint32(table[4*i:], c)
	}
	cw.Write(table)
	if cw.err == nil {
		cw.err = cw.w.Flush()
	}
	if cw.err != nil {
		return nil, 0, "", cw.err
	}
	return table, cw.pos, hex.EncodeToString(cw.digest.Sum(nil)), nil
}
