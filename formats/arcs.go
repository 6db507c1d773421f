package formats

import (
	"io"
	"io/fs"

	"github.com/klauspost/compress/gzip"
)

// defaultPrealloc bounds how many arcs (or entries) a header may make a
// reader allocate before the data is seen, when the input size is unknown:
// 64 Ki, under 1 MB. Past it, arrays grow with the data actually read, so
// a header claiming 2^31 arcs over a short input costs nothing.
const defaultPrealloc = 1 << 16

// maxDeflateRatio bounds how many bytes one byte of a DEFLATE (gzip) stream
// can decompress to.
const maxDeflateRatio = 1032

// preallocLimit returns how many items of at least minBytes bytes each the
// input r can hold: its remaining size divided by minBytes when r can tell
// (files, in-memory readers), else defaultPrealloc. in is the reader the
// data is parsed from; when it is a gzip stream, r's size bounds the text
// only through DEFLATE's largest ratio, which still keeps a short input
// from claiming gigabytes while letting a truthful header size the arrays.
func preallocLimit(r, in io.Reader, minBytes int64) int64 {
	size, ok := sizeHint(r)
	if !ok {
		return defaultPrealloc
	}
	if _, compressed := in.(*gzip.Reader); compressed {
		return max(size/minBytes*maxDeflateRatio, defaultPrealloc)
	}
	return size/minBytes + 1
}

// sizeKnown reports whether preallocLimit(r, in, ...) is an exact bound:
// r tells its size and in reads it as it is, not decompressed.
func sizeKnown(r, in io.Reader) bool {
	_, ok := sizeHint(r)
	_, compressed := in.(*gzip.Reader)
	return ok && !compressed
}

// sizeHint returns the bytes left in r when r can tell.
func sizeHint(r io.Reader) (int64, bool) {
	switch s := r.(type) {
	case interface{ Len() int }: // bytes.Reader, strings.Reader, bytes.Buffer
		return int64(s.Len()), true
	case interface {
		Stat() (fs.FileInfo, error)
		io.Seeker
	}: // *os.File
		info, err := s.Stat()
		if err != nil || !info.Mode().IsRegular() {
			return 0, false
		}
		at, err := s.Seek(0, io.SeekCurrent)
		if err != nil || at > info.Size() {
			return 0, false
		}
		return info.Size() - at, true
	}
	return 0, false
}

// arcArrays holds the three arc arrays of a reader at full length; the first
// k entries are used. Readers index them directly, which is cheaper than
// three appends per arc.
type arcArrays struct {
	src, dst, wt []int32
	k            int
	// declared is the header's arc count (-1 when unknown): growth stops
	// there, so a truthful header ends with arrays of exactly the right size.
	declared int64
}

// newArcArrays preallocates for the declared count, but for no more than
// limit arcs (see preallocLimit).
func newArcArrays(declared, limit int64) arcArrays {
	c := int(min(max(declared, 0), limit))
	a := arcArrays{
		src:      make([]int32, c),
		dst:      make([]int32, c),
		wt:       make([]int32, c),
		declared: declared,
	}
	adviseHugePages(a.src)
	adviseHugePages(a.dst)
	adviseHugePages(a.wt)
	return a
}

// grow makes room for at least one more arc: the capacity doubles, but not
// past the declared count while that count is still ahead.
func (a *arcArrays) grow() {
	c := max(2*len(a.src), 1024)
	if a.declared > int64(len(a.src)) {
		c = int(min(int64(c), a.declared))
	}
	a.src = growTo(a.src, a.k, c)
	a.dst = growTo(a.dst, a.k, c)
	a.wt = growTo(a.wt, a.k, c)
}

func growTo(s []int32, used, size int) []int32 {
	grown := make([]int32, size)
	adviseHugePages(grown)
	copy(grown, s[:used])
	return grown
}

// add appends one arc, growing when full.
func (a *arcArrays) add(u, v, w int32) {
	if a.k == len(a.src) {
		a.grow()
	}
	a.src[a.k], a.dst[a.k], a.wt[a.k] = u, v, w
	a.k++
}

// reset empties a, making room for at least c arcs with no growth limit.
func (a *arcArrays) reset(c int) {
	if len(a.src) < c {
		a.src, a.dst, a.wt = make([]int32, c), make([]int32, c), make([]int32, c)
	}
	a.k, a.declared = 0, -1
}

// window returns the arrays [start, start+n) of a as an empty arcArrays that
// cannot grow beyond them (declared is its length), for a writer that fills
// that part of a in place.
func (a *arcArrays) window(start, n int) arcArrays {
	end := start + n
	return arcArrays{src: a.src[start:end:end], dst: a.dst[start:end:end], wt: a.wt[start:end:end], declared: int64(n)}
}

// holds reports whether w's arrays begin at index start of a's, that is,
// w is a window of a's current arrays.
func (a *arcArrays) holds(w *arcArrays, start int) bool {
	return len(w.src) > 0 && start < len(a.src) && &a.src[start] == &w.src[0]
}

// appendArcs appends the arcs of b to a, growing a as needed. b may be a
// window of a at or after a's end (the copy moves the arcs down).
func (a *arcArrays) appendArcs(b *arcArrays) {
	for a.k+b.k > len(a.src) {
		a.grow()
	}
	copy(a.src[a.k:], b.src[:b.k])
	copy(a.dst[a.k:], b.dst[:b.k])
	copy(a.wt[a.k:], b.wt[:b.k])
	a.k += b.k
}

// trimmed returns the used part of the three arrays. When the arrays are
// much larger than what was used (a header that overstated its count), the
// data is copied so the excess memory can be freed.
func (a *arcArrays) trimmed() (src, dst, wt []int32) {
	if a.k < len(a.src)/2 {
		return append([]int32(nil), a.src[:a.k]...), append([]int32(nil), a.dst[:a.k]...), append([]int32(nil), a.wt[:a.k]...)
	}
	return a.src[:a.k:a.k], a.dst[:a.k:a.k], a.wt[:a.k:a.k]
}
