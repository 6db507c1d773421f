package mapfile

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/pathflow/pathflow/internal/parallel"
)

// HeaderCRC is the CRC-32C of fixed, its four bytes at crcAt (where the
// header keeps this CRC) read as zero, followed by rest (what else the
// header's CRC covers: metadata, padding).
func HeaderCRC(fixed []byte, crcAt int, rest []byte) uint32 {
	b := append([]byte(nil), fixed...)
	binary.LittleEndian.PutUint32(b[crcAt:], 0)
	return crc32.Update(crc32.Checksum(b, castagnoli), castagnoli, rest)
}

// FileChecksum is a mapped file's checksum of itself: the CRC-32C of its
// fixed header (whose CRC covers the header and what the file kind adds
// to it) followed by its table of block checksums (which cover the data),
// as "crc32c:" and 8 hex digits. A file that passes its opener's checks
// holds exactly the bytes these CRCs describe, so this one number stands
// for the whole file at the cost of hashing a few hundred bytes instead of
// the file: a writer records it beside the file (an ingest manifest does),
// a reader compares it to tell a stale or replaced file, whose own CRCs
// agree, from the one written.
func FileChecksum(fixed, table []byte) string {
	c := crc32.Update(crc32.Checksum(fixed, castagnoli), castagnoli, table)
	return fmt.Sprintf("crc32c:%08x", c)
}

// Blocks describes the checked data of a file: the bytes from Start to
// End, in blocks of BlockBytes, whose CRC-32Cs are the uint32s of the
// table at Table.
type Blocks struct {
	Start, End, BlockBytes, Table int64
}

// Count is the number of blocks, the table's entries.
func (bl Blocks) Count() int64 { return CheckCount(bl.Start, bl.End, bl.BlockBytes) }

// TableEnd is the end of the checksum table.
func (bl Blocks) TableEnd() int64 { return bl.Table + 4*bl.Count() }

// Verify compares the CRC-32C of every block of the data in b (the whole
// file) with the file's table, blocks shared out among workers
// goroutines, and names the first block that differs. O(End - Start), at
// memory speed on each worker when the file is in the page cache.
func (bl Blocks) Verify(b []byte, workers int) error {
	count := bl.Count()
	bad := make([]bool, count)
	parallel.For(int(count), max(workers, 1), func(i int) {
		lo := bl.Start + int64(i)*bl.BlockBytes
		hi := min(lo+bl.BlockBytes, bl.End)
		want := binary.LittleEndian.Uint32(b[bl.Table+4*int64(i):])
		bad[i] = crc32.Checksum(b[lo:hi], castagnoli) != want
	})
	for i, x := range bad {
		if x {
			lo := bl.Start + int64(i)*bl.BlockBytes
			return fmt.Errorf("checksum mismatch in bytes %d to %d: the file is corrupt", lo, min(lo+bl.BlockBytes, bl.End))
		}
	}
	return nil
}
