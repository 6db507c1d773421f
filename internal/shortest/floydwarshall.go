package shortest

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/paths"
)

// DefaultTileEdge is the tile edge of BlockedFloydWarshall when none is
// given. Three int32 tiles of 128 x 128 (192 KiB) stay in a core's L2
// cache while a tile is updated, and the serial share of each round
// (phases 1 and 2) stays small; on Erdős–Rényi graphs of 2,048 vertices 128
// measured faster than 64 and on par with 256, which balances worse over
// many cores.
const DefaultTileEdge = 128

// inf64 is "no path" in int64 working matrices: inf64 + inf64 still fits,
// and every distance accepted (bound < maxExactBound) is below it.
const inf64 = int64(maxExactBound)

// BlockedFloydWarshall computes all-pairs shortest paths with the
// cache-blocked Floyd-Warshall algorithm (Venkataraman, Sahni and
// Mukhopadhyaya, 2003): the matrix is cut into blockSize x blockSize tiles
// (0 means DefaultTileEdge), and round K updates the diagonal tile (K, K),
// then the tiles of row and column K, then every other tile, the last two
// phases in parallel over workers goroutines (<= 0 means GOMAXPROCS).
// Predecessors are computed when withParents: an arc's tail at first, then
// parent[s][v] = parent[k][v] whenever the path through k wins. On graphs
// with weights <= 0, rows whose parents close a cycle (possible along
// zero-weight cycles) are rebuilt from tight arcs (see RepairParentRows).
//
// Weights may be negative; parallel arcs count with their smallest weight
// and self-loops only when negative. Distances are int32 with graph.Inf32
// as "no path" when graph.FitsInt32Distances proves they fit, int64
// otherwise. A negative cycle gives a *NegativeCycleError: a negative entry
// on the diagonal shows one exists, and a Bellman-Ford search from that
// vertex finds the cycle.
//
// O(n^3) time, O(n^2) space (twice that with predecessors); the context is
// checked between rounds.
func BlockedFloydWarshall(ctx context.Context, e *graph.EdgeList, blockSize, workers int, withParents bool) (*paths.Matrix, error) {
	return BlockedFloydWarshallProgress(ctx, e, blockSize, workers, withParents, nil)
}

// BlockedFloydWarshallProgress is BlockedFloydWarshall telling progress (when not
// nil) the pivots done after every round.
func BlockedFloydWarshallProgress(ctx context.Context, e *graph.EdgeList, blockSize, workers int, withParents bool, progress func(done, total int64)) (*paths.Matrix, error) {
	if blockSize < 0 {
		return nil, fmt.Errorf("cpu: negative block size %d", blockSize)
	}
	if blockSize == 0 {
		blockSize = DefaultTileEdge
	}
	workers = parallel.Workers(workers)
	return floydWarshall(ctx, e, withParents,
		func(m *fwMatrix[int32]) (int32, error) { return blockedFW(ctx, m, blockSize, workers, progress) },
		func(m *fwMatrix[int64]) (int32, error) { return blockedFW(ctx, m, blockSize, workers, progress) },
		blockSize, workers)
}

// NaiveFloydWarshall is the textbook triple loop over k, i and j, single
// threaded: the reference the blocked version is tested against. Same
// input rules and results as BlockedFloydWarshall. O(n^3) time, O(n^2)
// space.
func NaiveFloydWarshall(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error) {
	return NaiveFloydWarshallProgress(ctx, e, withParents, nil)
}

// NaiveFloydWarshallProgress is NaiveFloydWarshall telling progress (when not nil)
// the pivots done after every pivot.
func NaiveFloydWarshallProgress(ctx context.Context, e *graph.EdgeList, withParents bool, progress func(done, total int64)) (*paths.Matrix, error) {
	return floydWarshall(ctx, e, withParents,
		func(m *fwMatrix[int32]) (int32, error) { return naiveFW(ctx, m, progress) },
		func(m *fwMatrix[int64]) (int32, error) { return naiveFW(ctx, m, progress) },
		1, 1)
}

// fwMatrix is a working distance matrix (and predecessor matrix) whose
// rows are stride entries apart; stride >= n pads the matrix to whole tiles
// with "no path" entries, which never improve anything.
type fwMatrix[D paths.Distance] struct {
	n, stride int
	d         []D
	p         []int32
	inf       D
}

// newFWMatrix fills the working matrix from the arcs of e: 0 on the
// diagonal, the smallest weight of each arc (below 0 for a negative
// self-loop), inf elsewhere; the predecessor of an arc's head is its tail.
// O(stride^2 + m).
func newFWMatrix[D paths.Distance](e *graph.EdgeList, stride int, inf D, withParents bool) *fwMatrix[D] {
	n := int(e.N)
	m := &fwMatrix[D]{n: n, stride: stride, d: make([]D, stride*stride), inf: inf}
	for i := range m.d {
		m.d[i] = inf
	}
	for v := range n {
		m.d[v*stride+v] = 0
	}
	if withParents {
		m.p = make([]int32, stride*stride)
		for i := range m.p {
			m.p[i] = paths.NoParent
		}
	}
	for i, u := range e.Src {
		v, w := e.Dst[i], D(e.Weight[i])
		at := int(u)*stride + int(v)
		if w < m.d[at] {
			m.d[at] = w
			if m.p != nil {
				m.p[at] = u
			}
		}
	}
	return m
}

// negativeDiagonal returns the first vertex whose distance to itself is
// negative, or -1. O(n).
func (m *fwMatrix[D]) negativeDiagonal() int32 {
	for v := range m.n {
		if m.d[v*m.stride+v] < 0 {
			return int32(v)
		}
	}
	return -1
}

// floydWarshall validates e, picks the distance type, runs one of the two
// instantiations of an algorithm and builds the result. The working matrix
// is padded to a multiple of pad.
func floydWarshall(ctx context.Context, e *graph.EdgeList, withParents bool,
	run32 func(*fwMatrix[int32]) (int32, error), run64 func(*fwMatrix[int64]) (int32, error), pad, workers int) (*paths.Matrix, error) {
	if err := ValidateEdgeList(e); err != nil {
		return nil, err
	}
	if err := checkMatrixSize(int64(e.N) + int64(pad)); err != nil {
		return nil, err
	}
	n := int(e.N)
	stride := (n + pad - 1) / pad * pad
	lo, hi := e.WeightRange()
	result := &paths.Matrix{N: e.N}
	var negative int32
	var err error
	// Zero-weight cycles need weights <= 0; see RepairParentRows.
	repair := withParents && lo <= 0
	if graph.FitsInt32Distances(int64(n), lo, hi) {
		m := newFWMatrix(e, stride, graph.Inf32, withParents)
		if negative, err = run32(m); err == nil && negative < 0 {
			result.Dist32, result.Parent = m.compact()
			if repair {
				err = RepairParentRows(ctx, graph.BuildCSR(e), result.Dist32, result.Parent, graph.Inf32, workers)
			}
		}
	} else {
		if err := checkDistanceBound(e.N, lo, hi, maxExactBound); err != nil {
			return nil, err
		}
		m := newFWMatrix(e, stride, inf64, withParents)
		if negative, err = run64(m); err == nil && negative < 0 {
			result.Dist64, result.Parent = m.compact()
			if repair {
				err = RepairParentRows(ctx, graph.BuildCSR(e), result.Dist64, result.Parent, inf64, workers)
			}
			for i, d := range result.Dist64 {
				if d >= inf64 {
					result.Dist64[i] = paths.Unreachable
				}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if negative >= 0 {
		return nil, negativeCycleFrom(ctx, graph.BuildCSR(e), negative)
	}
	return result, nil
}

// compact drops the padding, moving rows to stride n in place.
func (m *fwMatrix[D]) compact() ([]D, []int32) {
	if m.stride != m.n {
		for i := range m.n {
			copy(m.d[i*m.n:(i+1)*m.n], m.d[i*m.stride:])
			if m.p != nil {
				copy(m.p[i*m.n:(i+1)*m.n], m.p[i*m.stride:])
			}
		}
	}
	d := m.d[: m.n*m.n : m.n*m.n]
	if m.p == nil {
		return d, nil
	}
	return d, m.p[: m.n*m.n : m.n*m.n]
}

// negativeCycleFrom finds a negative cycle reachable from v, which an
// all-pairs algorithm found on a negative closed walk, with Bellman-Ford.
func negativeCycleFrom(ctx context.Context, g *graph.CSR, v int32) error {
	dist := make([]int64, g.N)
	parent := make([]int32, g.N)
	for i := range dist {
		dist[i], parent[i] = paths.Unreachable, paths.NoParent
	}
	dist[v] = 0
	err := newBellmanFordSearch(g.N).run(ctx, g, dist, parent, []int32{v}, math.MaxInt64)
	if err == nil { // cannot happen: a negative closed walk from v exists
		err = &NegativeCycleError{Backend: backend.CPU, Vertex: v}
	}
	return err
}

// naiveFW is the triple loop over k, i, j. It returns a vertex with a
// negative diagonal entry (checked after every k) or -1.
func naiveFW[D paths.Distance](ctx context.Context, m *fwMatrix[D], progress func(done, total int64)) (int32, error) {
	n, d, p, inf := m.n, m.d, m.p, m.inf
	for k := range n {
		if k%64 == 0 {
			if err := ctx.Err(); err != nil {
				return -1, fmt.Errorf("cpu: floyd-warshall: %w", err)
			}
		}
		for i := range n {
			x := d[i*n+k]
			if x >= inf {
				continue
			}
			for j := range n {
				y := d[k*n+j]
				if y >= inf {
					continue
				}
				if s := max(x+y, -inf); s < d[i*n+j] {
					d[i*n+j] = s
					if p != nil {
						p[i*n+j] = p[k*n+j]
					}
				}
			}
		}
		if v := m.negativeDiagonal(); v >= 0 {
			return v, nil
		}
		reportPivots(progress, k+1, n)
	}
	return -1, nil
}

// reportPivots tells progress, when not nil, that done of n pivots have
// run.
func reportPivots(progress func(done, total int64), done, n int) {
	if progress != nil {
		progress(int64(min(done, n)), int64(n))
	}
}

// blockedFW runs the rounds of the blocked algorithm on a matrix padded to
// whole tiles of edge bs. It returns a vertex with a negative diagonal
// entry (checked after every round) or -1.
func blockedFW[D paths.Distance](ctx context.Context, m *fwMatrix[D], bs, workers int, progress func(done, total int64)) (int32, error) {
	tiles := m.stride / bs
	for k := range tiles {
		if err := ctx.Err(); err != nil {
			return -1, fmt.Errorf("cpu: floyd-warshall: %w", err)
		}
		// Phase 1: the diagonal tile on its own.
		dkk, pkk := m.tile(k, k, bs)
		relaxTileInPlace(dkk, dkk, dkk, pkk, pkk, m.stride, bs, m.inf)
		m.relaxPivotCross(k, tiles, bs, workers)
		m.relaxRest(k, tiles, bs, workers)
		if v := m.negativeDiagonal(); v >= 0 {
			return v, nil
		}
		reportPivots(progress, (k+1)*bs, m.n)
	}
	return -1, nil
}

// tile returns the distance and predecessor slices starting at tile (r, c)
// of edge bs.
func (m *fwMatrix[D]) tile(r, c, bs int) ([]D, []int32) {
	at := r*bs*m.stride + c*bs
	if m.p == nil {
		return m.d[at:], nil
	}
	return m.d[at:], m.p[at:]
}

// relaxPivotCross is phase 2 of round k: the other tiles of row k and
// column k, each using the diagonal tile.
func (m *fwMatrix[D]) relaxPivotCross(k, tiles, bs, workers int) {
	dkk, pkk := m.tile(k, k, bs)
	parallelTiles(2*(tiles-1), workers, func(t int) {
		other := t / 2
		if other >= k {
			other++
		}
		if t%2 == 0 { // tile (k, other) of the row
			c, pc := m.tile(k, other, bs)
			relaxTileInPlace(c, dkk, c, pc, pc, m.stride, bs, m.inf)
		} else { // tile (other, k) of the column
			c, pc := m.tile(other, k, bs)
			relaxTileInPlace(c, c, dkk, pc, pkk, m.stride, bs, m.inf)
		}
	})
}

// relaxRest is phase 3 of round k: every tile off row and column k, from
// its row's column-k tile and its column's row-k tile. A worker takes a
// whole tile row, so it reuses the column-k tile across the row.
func (m *fwMatrix[D]) relaxRest(k, tiles, bs, workers int) {
	parallelTiles(tiles-1, workers, func(t int) {
		r := t
		if r >= k {
			r++
		}
		// The column-k tile is only read: its predecessors are not needed.
		a, _ := m.tile(r, k, bs)
		for col := range tiles {
			if col == k {
				continue
			}
			c, pc := m.tile(r, col, bs)
			b, pb := m.tile(k, col, bs)
			relaxTileIndependent(c, a, b, pc, pb, m.stride, bs, m.inf)
		}
	})
}

// parallelTiles runs work(t) for t = 0..count-1 on up to workers
// goroutines, handing out indices one at a time so uneven tiles balance.
func parallelTiles(count, workers int, work func(t int)) {
	if count <= 0 {
		return
	}
	if workers <= 1 || count == 1 {
		for t := range count {
			work(t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, count) {
		wg.Go(func() {
			for {
				t := int(next.Add(1) - 1)
				if t >= count {
					return
				}
				work(t)
			}
		})
	}
	wg.Wait()
}

// checkMatrixSize rejects vertex counts whose n x n matrix cannot be
// indexed (only possible where int is 32 bits).
func checkMatrixSize(n int64) error {
	if n*n > math.MaxInt {
		return fmt.Errorf("cpu: a %d x %d matrix is too large", n, n)
	}
	return nil
}
