package osmroads

import (
	"encoding/binary"
	"io"
)

// blockTracker passes a PBF file's bytes through while following its
// framing, so that a read that fails (a truncated file) can name the
// block it was in: each block is a 4-byte big-endian header size, a
// BlobHeader of that size whose field 3 is the size of the blob after it.
type blockTracker struct {
	r io.Reader
	// pos is the bytes passed through; start the offset of the block
	// they are in, next the offset of the block after it (0 while its
	// header is not whole).
	pos, start, next int64
	// head gathers the size prefix and BlobHeader of the current block.
	head []byte
}

func newBlockTracker(r io.Reader) *blockTracker { return &blockTracker{r: r} }

func (t *blockTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.follow(p[:n])
	return n, err
}

// follow advances the framing over the bytes b.
func (t *blockTracker) follow(b []byte) {
	for len(b) > 0 {
		if t.next > 0 && t.pos >= t.next { // a new block starts here
			t.start, t.next, t.head = t.next, 0, t.head[:0]
		}
		if t.next > 0 { // inside a blob: skip to its end
			k := min(int64(len(b)), t.next-t.pos)
			t.pos += k
			b = b[k:]
			continue
		}
		t.head = append(t.head, b[0])
		t.pos++
		b = b[1:]
		if len(t.head) >= 4 {
			size := int64(binary.BigEndian.Uint32(t.head))
			if int64(len(t.head)) == 4+size {
				t.next = t.pos + blobSize(t.head[4:])
			}
			if size > 64<<10 { // not a PBF block header: stop following
				t.next = 1 << 62
			}
		}
	}
}

// blobSize returns field 3 (datasize) of a BlobHeader, 0 when absent.
func blobSize(h []byte) int64 {
	for len(h) > 0 {
		key, n := binary.Uvarint(h)
		if n <= 0 {
			return 0
		}
		h = h[n:]
		switch key & 7 {
		case 0: // varint
			v, n := binary.Uvarint(h)
			if n <= 0 {
				return 0
			}
			if key>>3 == 3 {
				return int64(v)
			}
			h = h[n:]
		case 2: // length-delimited
			l, n := binary.Uvarint(h)
			if n <= 0 || uint64(len(h)-n) < l {
				return 0
			}
			h = h[n+int(l):]
		default:
			return 0
		}
	}
	return 0
}
