package graph

import (
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/parallel"
)

// parallelMinArcs is the arc count from which BuildCSR, BuildReverseCSR and
// Reverse sort on every core; below it the goroutines cost more than they
// save.
const parallelMinArcs = 1 << 17

// maxBuckets bounds how many vertex ranges the parallel sort first splits
// the arcs into: each worker then writes to at most that many places at
// once, which stays friendly to the caches and the TLB.
const maxBuckets = 256

// minBucketShift makes a vertex range at least 1,024 vertices, so a range's
// pass does real work even on small graphs.
const minBucketShift = 10

// arcSet is the input of the counting sort: arc i goes to row key[i], with
// target to[i] and weight weight[i]. When to is nil, the arcs are the rows
// of a CSR and the target of arc i is the row that holds it: the u with
// rows[u] <= i < rows[u+1] (how Reverse turns sources into targets without
// spelling them out in memory).
type arcSet struct {
	key, to, weight []int32
	rows            []int64
}

// buildCSRFor is the counting sort behind BuildCSR, BuildReverseCSR and
// Reverse: on one goroutine for small graphs or GOMAXPROCS 1, else on
// every core. Both give the same bytes.
func buildCSRFor(n int32, a arcSet) *CSR {
	workers := runtime.GOMAXPROCS(0)
	if workers == 1 || len(a.key) < parallelMinArcs {
		if a.to == nil {
			a.to = rowOfEachArc(a.rows, len(a.key))
		}
		return buildCSR(n, a.key, a.to, a.weight)
	}
	return buildCSRParallel(n, a, workers, bucketShift(n))
}

// bucketShift returns log2 of the vertex range size: the smallest that
// leaves at most maxBuckets ranges, and at least minBucketShift.
func bucketShift(n int32) uint {
	return uint(max(minBucketShift, bits.Len32(uint32(n))-bits.Len32(maxBuckets-1)))
}

// rowOfEachArc spells out the row of each of the m arcs of a CSR's
// offsets.
func rowOfEachArc(rows []int64, m int) []int32 {
	from := make([]int32, m)
	for u := 0; u+1 < len(rows); u++ {
		for i := rows[u]; i < rows[u+1]; i++ {
			from[i] = int32(u)
		}
	}
	return from
}

// buildCSRParallel is the stable counting sort of a by key over workers
// goroutines, byte for byte the result of buildCSR. The arcs are cut into
// one contiguous chunk per worker, the vertices into ranges of 2^shift.
//
//  1. Each chunk counts its arcs per vertex range; prefix sums over
//     (range, chunk) give every chunk its own place in every range.
//  2. Each chunk copies its arcs, in order, to those places: the arcs are
//     now grouped by vertex range, and within one range still in input
//     order.
//  3. Each range, independently, counting-sorts its arcs by vertex within
//     its own part of the output, and writes its vertices' offsets.
//
// Input already sorted by key takes a shortcut (sortedCSR). O(n + m) work,
// m extra int32s, and about (n + m) / workers time on a machine with
// enough memory bandwidth.
func buildCSRParallel(n int32, a arcSet, workers int, shift uint) *CSR {
	m := len(a.key)
	if isSortedParallel(a.key, workers) {
		return sortedCSR(n, a, workers)
	}
	c := &CSR{
		N:       n,
		Offsets: make([]int64, int(n)+1),
		Targets: make([]int32, m),
		Weights: make([]int32, m),
	}
	buckets := int(n>>shift) + 1
	chunk := func(w int) (lo, hi int) { return m * w / workers, m * (w + 1) / workers }

	// 1. Count per chunk and range.
	place := make([][]int, workers)
	parallel.For(workers, workers, func(w int) {
		count := make([]int, buckets)
		lo, hi := chunk(w)
		for _, k := range a.key[lo:hi] {
			count[k>>shift]++
		}
		place[w] = count
	})
	bucketStart := parallel.Places(place, buckets)

	// 2. Scatter into ranges: keys to a scratch array, targets and weights
	// straight to their range's part of the output, which step 3 then
	// permutes in place.
	keys := make([]int32, m)
	parallel.For(workers, workers, func(w int) {
		next := place[w]
		lo, hi := chunk(w)
		if a.to != nil {
			for i := lo; i < hi; i++ {
				k := a.key[i]
				p := next[k>>shift]
				next[k>>shift]++
				keys[p], c.Targets[p], c.Weights[p] = k, a.to[i], a.weight[i]
			}
			return
		}
		if lo == hi {
			return
		}
		// The row holding arc lo: the first whose end lies past it.
		u := int32(sort.Search(int(n), func(u int) bool { return a.rows[u+1] > int64(lo) }))
		for i := lo; i < hi; i++ {
			for int64(i) >= a.rows[u+1] {
				u++
			}
			k := a.key[i]
			p := next[k>>shift]
			next[k>>shift]++
			keys[p], c.Targets[p], c.Weights[p] = k, u, a.weight[i]
		}
	})

	// 3. Sort each range by vertex. Ranges vary in size, so workers take
	// the next one as they finish.
	var nextBucket atomic.Int64
	parallel.For(workers, workers, func(int) {
		var next []int64
		var to, weight []int32
		for {
			b := int(nextBucket.Add(1) - 1)
			if b >= buckets {
				return
			}
			v0 := int32(b) << shift
			v1 := int32(min(int64(b+1)<<shift, int64(n)))
			lo, hi := bucketStart[b], bucketStart[b+1]
			next = slices.Grow(next[:0], int(v1-v0))[:v1-v0]
			clear(next)
			for _, k := range keys[lo:hi] {
				next[k-v0]++
			}
			sum := int64(lo)
			for v := v0; v < v1; v++ {
				count := next[v-v0]
				next[v-v0] = sum
				sum += count
				c.Offsets[v+1] = sum
			}
			to = append(to[:0], c.Targets[lo:hi]...)
			weight = append(weight[:0], c.Weights[lo:hi]...)
			for j, k := range keys[lo:hi] {
				p := next[k-v0]
				next[k-v0]++
				c.Targets[p], c.Weights[p] = to[j], weight[j]
			}
		}
	})
	return c
}

// sortedCSR builds the CSR of arcs whose keys never decrease (every
// generator's output and many files): the arcs keep their places, so the
// targets and weights are copies and only the offsets need work. Offsets[v]
// is the index of the first arc with key >= v, written by the chunk that
// holds that arc (or by the last chunk for vertices past the last key).
func sortedCSR(n int32, a arcSet, workers int) *CSR {
	m := len(a.key)
	c := &CSR{
		N:       n,
		Offsets: make([]int64, int(n)+1),
		Targets: make([]int32, m),
		Weights: make([]int32, m),
	}
	parallel.For(workers, workers, func(w int) {
		lo, hi := m*w/workers, m*(w+1)/workers
		copy(c.Weights[lo:hi], a.weight[lo:hi])
		if a.to != nil {
			copy(c.Targets[lo:hi], a.to[lo:hi])
		} else if lo < hi {
			u := int32(sort.Search(int(n), func(u int) bool { return a.rows[u+1] > int64(lo) }))
			for i := lo; i < hi; i++ {
				for int64(i) >= a.rows[u+1] {
					u++
				}
				c.Targets[i] = u
			}
		}
		prev := int32(-1) // the key before arc lo
		if lo > 0 {
			prev = a.key[lo-1]
		}
		for i := lo; i < hi; i++ {
			for v := prev + 1; v <= a.key[i]; v++ {
				c.Offsets[v] = int64(i)
			}
			prev = a.key[i]
		}
		if hi == m {
			for v := int64(prev) + 1; v <= int64(n); v++ {
				c.Offsets[v] = int64(m)
			}
		}
	})
	return c
}

// isSortedParallel reports whether keys never decrease, each worker
// checking one chunk and the step into it.
func isSortedParallel(keys []int32, workers int) bool {
	var unsorted atomic.Bool
	m := len(keys)
	parallel.For(workers, workers, func(w int) {
		lo, hi := max(m*w/workers, 1), m*(w+1)/workers
		for i := lo; i < hi; i++ {
			if keys[i] < keys[i-1] {
				unsorted.Store(true)
				return
			}
		}
	})
	return !unsorted.Load()
}
