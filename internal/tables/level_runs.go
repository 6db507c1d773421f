package tables

import (
	"encoding/binary"
	"math/bits"
)

// levelRuns encodes a page's repetition or definition levels in Parquet's
// RLE / bit-packed hybrid, given as runs of one level rather than a level
// at a time: a list column's levels are long runs (a route's vertices are
// all at the element's definition level, and all but its first at
// repetition level 1), and a run costs at most nine steps however long it
// is.
//
// The bytes are those of arrow-go's RleEncoder fed the same levels one by
// one (its Put, which its PutBatchLevels matches): levels are buffered
// eight at a time; eight equal ones start a repeated run, which lasts as
// long as the level does; other groups of eight are bit-packed into a
// literal run of at most 63 groups, whose indicator byte is reserved when
// it starts and written when it ends; the last partial group is a
// repeated run when everything buffered is one run, else a literal group
// padded with zeros.
type levelRuns struct {
	width     int // bits a level
	out       []byte
	buffer    [8]uint64
	buffered  int
	cur       uint64 // the level of the current run
	repeats   int    // how long the current run is
	literals  int    // levels in the open literal run
	indicator int    // where the open literal run's indicator is, or -1
}

// reset starts a page's levels, of at most maxLevel, appended to out.
func (r *levelRuns) reset(maxLevel int16, out []byte) {
	*r = levelRuns{width: bits.Len16(uint16(maxLevel)), out: out, indicator: -1}
}

// put appends n levels of value v.
func (r *levelRuns) put(v uint64, n int) {
	for ; n > 0; n-- {
		if r.cur == v && r.repeats >= 8 {
			// A repeated run already written as such: it just grows.
			r.repeats += n
			return
		}
		r.putOne(v)
	}
}

// putOne is RleEncoder.Put.
func (r *levelRuns) putOne(v uint64) {
	if r.cur == v {
		r.repeats++
		if r.repeats > 8 {
			return
		}
	} else {
		if r.repeats >= 8 {
			r.flushRepeated()
		}
		r.repeats, r.cur = 1, v
	}
	r.buffer[r.buffered] = v
	r.buffered++
	if r.buffered == 8 {
		r.flushBuffered()
	}
}

// flushBuffered ends a group of eight: part of a repeated run, or one
// more literal group.
func (r *levelRuns) flushBuffered() {
	if r.repeats >= 8 {
		r.buffered = 0
		if r.literals != 0 {
			r.flushLiteral(true)
		}
		return
	}
	r.literals += r.buffered
	// The indicator byte holds at most 63 groups.
	r.flushLiteral(r.literals/8+1 >= 1<<6)
	r.repeats = 0
}

// flushLiteral bit-packs the buffered group into the open literal run
// (starting one, its indicator byte reserved, if none is open) and, when
// end is set, writes the indicator and closes the run.
func (r *levelRuns) flushLiteral(end bool) {
	if r.indicator < 0 {
		r.indicator = len(r.out)
		r.out = append(r.out, 0)
	}
	if r.buffered > 0 {
		// Eight levels of width bits are width whole bytes, least
		// significant bit first.
		var packed uint64
		for i := range r.buffered {
			packed |= r.buffer[i] << (i * r.width)
		}
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], packed)
		r.out = append(r.out, b[:r.width]...)
		r.buffered = 0
	}
	if end {
		r.out[r.indicator] = byte(r.literals/8<<1 | 1)
		r.indicator, r.literals = -1, 0
	}
}

// flushRepeated writes the current run as a repeated run: its length
// (shifted, as a varint) and its level in whole bytes.
func (r *levelRuns) flushRepeated() {
	r.out = binary.AppendUvarint(r.out, uint64(r.repeats)<<1)
	for i := range (r.width + 7) / 8 {
		r.out = append(r.out, byte(r.cur>>(8*i)))
	}
	r.repeats, r.buffered = 0, 0
}

// finish ends the page's levels and returns the bytes appended since
// reset's out.
func (r *levelRuns) finish() []byte {
	if r.literals > 0 || r.repeats > 0 || r.buffered > 0 {
		allRepeated := r.literals == 0 && (r.repeats == r.buffered || r.buffered == 0)
		if r.repeats > 0 && allRepeated {
			r.flushRepeated()
		} else {
			for r.buffered != 0 && r.buffered < 8 {
				r.buffer[r.buffered] = 0
				r.buffered++
			}
			r.literals += r.buffered
			r.flushLiteral(true)
			r.repeats = 0
		}
	}
	return r.out
}
