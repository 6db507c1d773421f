package mapfile

import (
	"errors"
	"hash/crc32"
	"unsafe"
)

// Alignment is the boundary every array of a mapped file starts on, so
// that the arrays of a mapping are aligned for any element type (and for
// the device copies of them).
const Alignment = 4096

// BlockBytes is the size of the blocks the data's checksums cover: large
// enough that the table stays small (64 entries per GiB), small enough
// that every core gets blocks to check.
const BlockBytes = 16 << 20

// Align rounds x up to the next multiple of Alignment.
func Align(x int64) int64 { return (x + Alignment - 1) &^ (Alignment - 1) }

// ErrBigEndian is returned by the writers and openers of mapped files on a
// big-endian host, whose arrays cannot be the file's bytes: callers go
// without the mapped file.
var ErrBigEndian = errors.New("mapped files need a little-endian host")

// LittleEndian is true on hosts whose integers are laid out as the files'.
var LittleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// castagnoli is the CRC-32C table; hash/crc32 computes it with the SSE 4.2
// and ARMv8 CRC instructions where the CPU has them.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Placer hands out the positions of a file's arrays in order, each on an
// Alignment boundary.
type Placer struct{ at int64 }

// NewPlacer places arrays from start, a multiple of Alignment.
func NewPlacer(start int64) *Placer { return &Placer{at: start} }

// Place returns the position of the next array, of size bytes.
func (p *Placer) Place(bytes int64) int64 {
	start := p.at
	p.at = Align(p.at + bytes)
	return start
}

// End is the end of the last array placed, padded to Alignment.
func (p *Placer) End() int64 { return p.at }

// CheckCount is the number of blocks of blockBytes in the data from
// dataStart to dataEnd: the entries of the file's checksum table.
func CheckCount(dataStart, dataEnd, blockBytes int64) int64 {
	return (dataEnd - dataStart + blockBytes - 1) / blockBytes
}

// ArrayAt views count integers of b from byte at (a multiple of their
// size) as a slice, without a copy.
func ArrayAt[T int32 | int64](b []byte, at, count int64) []T {
	if count == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[at])), count)
}

// BytesOf views an array of fixed-size integers as its bytes, without a
// copy (the host is little-endian).
func BytesOf[T int32 | int64](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}
