package tables

import (
	"encoding/binary"
	"math/bits"
)

// appendLevelsRLE appends the definition levels of a flat nullable column
// (1 for a value, 0 for a null) as Parquet's RLE / bit-packed hybrid of
// bit width 1, read straight from the validity bits [off, off+n) of
// bitmap; a nil bitmap means no nulls. No level is ever expanded to an
// int16: a run of equal bits costs a few word operations, eight mixed
// bits one byte.
//
// The bytes are those of arrow-go's RleEncoder fed the same levels: the
// levels go in groups of eight, starting at the first level and again
// after each repeated run; a group of eight equal levels starts a
// repeated run, which lasts as long as the level does; other groups are
// bit-packed, at most 63 to a literal run. The last, partial group is a
// repeated run when it is all one level and no literal run is open, and
// otherwise the literal run's last group, padded with zeros.
func appendLevelsRLE(dst []byte, bitmap []byte, off, n int) []byte {
	if n == 0 {
		return dst
	}
	if bitmap == nil {
		return appendRepeatedRun(dst, n, 1)
	}
	var (
		indicator = -1 // where the open literal run's indicator byte is
		groups    = 0  // groups in the open literal run
	)
	closeLiteral := func() {
		if indicator >= 0 {
			dst[indicator] = byte(groups<<1 | 1)
			indicator, groups = -1, 0
		}
	}
	p, end := off, off+n
	for end-p >= 8 {
		g := bits8(bitmap, p)
		if g == 0 || g == 0xff {
			closeLiteral()
			v := g & 1
			run := 8 + equalBits(bitmap, p+8, end, v)
			dst = appendRepeatedRun(dst, run, v)
			p += run
			continue
		}
		if indicator < 0 {
			indicator = len(dst)
			dst = append(dst, 0)
		}
		dst = append(dst, g)
		groups++
		if groups == 63 {
			closeLiteral()
		}
		p += 8
	}
	if r := end - p; r > 0 {
		g := bits8(bitmap, p) & (1<<r - 1)
		if indicator < 0 && (g == 0 || g == 1<<r-1) {
			return appendRepeatedRun(dst, r, g&1)
		}
		if indicator < 0 {
			indicator = len(dst)
			dst = append(dst, 0)
		}
		dst = append(dst, g)
		groups++
	}
	closeLiteral()
	return dst
}

// appendRepeatedRun appends a run of n levels equal to v.
func appendRepeatedRun(dst []byte, n int, v byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(n)<<1), v)
}

// bits8 returns the bits [p, p+8) of bitmap, or as many as it holds.
func bits8(bitmap []byte, p int) byte {
	i, s := p>>3, uint(p&7)
	v := uint16(bitmap[i])
	if s != 0 && i+1 < len(bitmap) {
		v |= uint16(bitmap[i+1]) << 8
	}
	return byte(v >> s)
}

// equalBits counts the bits equal to v from p on, up to end.
func equalBits(bitmap []byte, p, end int, v byte) int {
	start := p
	for p < end {
		i, s := p>>3, uint(p&7)
		var word uint64
		if i+8 <= len(bitmap) {
			word = binary.LittleEndian.Uint64(bitmap[i:])
		} else {
			var b [8]byte
			copy(b[:], bitmap[i:])
			word = binary.LittleEndian.Uint64(b[:])
		}
		word >>= s
		if v == 0 {
			word = ^word
		}
		avail := 64 - int(s)
		same := min(bits.TrailingZeros64(^word), avail)
		p += same
		if same < avail {
			break
		}
	}
	return min(p, end) - start
}
