package tables

//go:generate go run ./internal/genpackers

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// The DELTA_BINARY_PACKED layout that arrow-go (and parquet-cpp, parquet-mr)
// write: blocks of 128 deltas in 4 miniblocks of 32.
const (
	deltaBlockValues     = 128
	deltaMiniblocks      = 4
	deltaMiniblockValues = deltaBlockValues / deltaMiniblocks
)

// deltaInt is what DELTA_BINARY_PACKED stores: Parquet's INT32 and INT64.
type deltaInt interface{ ~int32 | ~int64 }

// steadyStepLimit bounds the step steadyStep takes: 127 steps of it can
// wrap past the type's range only from a start within 127 x 2^24 of its
// end, which steadyStep checks.
const steadyStepLimit = 1 << 24

// steadyStep reports whether vals (a block's base and its values) go up
// or down by one step throughout, without wrapping past the type's
// range, and returns the step. A long-layout table's source (a run of
// one value) and vertex (a run of counts) columns are such blocks but at
// their rows' ends: one comparison a value finds them, where a block's
// general path takes its deltas, their minimum and their spread. The
// first value that differs ends the scan, so other columns pay a
// comparison or two.
func steadyStep[T deltaInt](vals []T) (T, bool) {
	step := vals[1] - vals[0]
	if step < -steadyStepLimit || step > steadyStepLimit {
		return 0, false
	}
	for i := 2; i < len(vals); i++ {
		if vals[i]-vals[i-1] != step {
			return 0, false
		}
	}
	// In range throughout: the last value lies on the side of the first
	// its step says, at the distance it says.
	first, last := int64(vals[1]), int64(vals[len(vals)-1])
	if step >= 0 && last < first || step < 0 && last > first {
		return 0, false
	}
	if last-first != int64(len(vals)-2)*int64(step) {
		return 0, false
	}
	return step, true
}

// zigzag maps signed to unsigned so that small magnitudes stay small.
func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// appendDeltaHeader appends a DELTA_BINARY_PACKED page's header: block
// size, miniblocks per block, the count of values and the first value.
// A page without values stores 0 as its first value.
func appendDeltaHeader(dst []byte, count int, first int64) []byte {
	dst = binary.AppendUvarint(dst, deltaBlockValues)
	dst = binary.AppendUvarint(dst, deltaMiniblocks)
	dst = binary.AppendUvarint(dst, uint64(count))
	return binary.AppendUvarint(dst, zigzag(first))
}

// appendDeltaBlock appends one block of DELTA_BINARY_PACKED data: vals[0]
// is the value before the block and vals[1:] (1 to 128 values) the
// block's. It returns the block's smallest and largest value beside it,
// which the page's statistics need, so that the values are read once.
//
// The bytes are those of arrow-go's encoder: the minimum delta as a zigzag
// varint, four bit widths (0 for miniblocks past the last value), then
// each miniblock that holds values packed at its width, least significant
// bit first, the last one padded with zeros to 32 values. A delta is
// taken at the column's width, so that it wraps as the specification
// requires, and widened only afterwards.
//
// Packing a miniblock at once, with every shift a constant of its width
// (packMiniblock, generated), instead of arrow-go's call per value into
// its bit writer, is what makes the column cheap.
func appendDeltaBlock[T deltaInt](dst []byte, vals []T) (out []byte, lo, hi T) {
	n := len(vals) - 1
	if n == deltaBlockValues {
		if step, ok := steadyStep(vals); ok {
			// Every delta is the minimum: each miniblock packs at width 0.
			dst = binary.AppendUvarint(dst, zigzag(int64(step)))
			dst = append(dst, 0, 0, 0, 0)
			lo, hi = vals[1], vals[n]
			if step < 0 {
				lo, hi = hi, lo
			}
			return dst, lo, hi
		}
	}
	var deltas [deltaBlockValues]int64
	minDelta := int64(math.MaxInt64)
	lo, hi = vals[1], vals[1]
	if n == deltaBlockValues {
		// Two of everything, even and odd values apart, so that each
		// running minimum and maximum waits on one comparison in two.
		block := (*[deltaBlockValues + 1]T)(vals)
		min1, lo1, hi1 := minDelta, lo, hi
		for i := 0; i < deltaBlockValues; i += 2 {
			v0, v1 := block[i+1], block[i+2]
			d0, d1 := int64(v0-block[i]), int64(v1-v0)
			deltas[i], deltas[i+1] = d0, d1
			minDelta, min1 = min(minDelta, d0), min(min1, d1)
			lo, lo1 = min(lo, v0), min(lo1, v1)
			hi, hi1 = max(hi, v0), max(hi1, v1)
		}
		minDelta, lo, hi = min(minDelta, min1), min(lo, lo1), max(hi, hi1)
	} else {
		prev := vals[0]
		for i, v := range vals[1:] {
			d := int64(v - prev)
			deltas[i&(deltaBlockValues-1)] = d
			minDelta = min(minDelta, d)
			lo, hi = min(lo, v), max(hi, v)
			prev = v
		}
	}
	dst = binary.AppendUvarint(dst, zigzag(minDelta))
	widths := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	for m := 0; m*deltaMiniblockValues < n; m++ {
		mini := deltas[m*deltaMiniblockValues : min(m*deltaMiniblockValues+deltaMiniblockValues, n)]
		var u [deltaMiniblockValues]uint64 // past the last value: zeros, arrow-go's padding
		spread := uint64(0)
		for i, d := range mini {
			u[i] = uint64(d - minDelta)
			spread |= u[i]
		}
		width := bits.Len64(spread)
		dst[widths+m] = byte(width)
		dst = packMiniblock(dst, &u, width)
	}
	return dst, lo, hi
}
