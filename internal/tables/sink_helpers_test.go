package tables

import (
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// treeBlocks cuts trees into blocks of at most per rows, as a backend would
// hand them over: int32 distances (graph.Inf32 for none) when narrow,
// else int64.
func treeBlocks(trees []*paths.Tree, per int, narrow, withParents bool) []*backend.Rows {
	n := len(trees[0].Dist)
	var blocks []*backend.Rows
	for lo := 0; lo < len(trees); lo += per {
		hi := min(lo+per, len(trees))
		b := &backend.Rows{First: lo, Width: n}
		for _, t := range trees[lo:hi] {
			b.Sources = append(b.Sources, t.Source)
			if narrow {
				for _, d := range t.Dist {
					if d == paths.Unreachable {
						b.Dist32 = append(b.Dist32, graph.Inf32)
					} else {
						b.Dist32 = append(b.Dist32, int32(d))
					}
				}
			} else {
				b.Dist64 = append(b.Dist64, t.Dist...)
			}
			if withParents {
				b.Parent = append(b.Parent, t.Parent...)
			}
		}
		blocks = append(blocks, b)
	}
	return blocks
}

func treeSources(trees []*paths.Tree) []int32 {
	sources := make([]int32, len(trees))
	for i, t := range trees {
		sources[i] = t.Source
	}
	return sources
}

// putShuffled hands blocks to s from several goroutines in a random order,
// as concurrent producers would, and returns the first error.
func putShuffled(s *ResultSink, blocks []*backend.Rows, rng *rand.Rand) error {
	order := rng.Perm(len(blocks))
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	next := make(chan *backend.Rows)
	for range 3 {
		wg.Go(func() {
			for b := range next {
				if err := s.Put(b); err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
				}
			}
		})
	}
	for _, i := range order {
		next <- blocks[i]
	}
	close(next)
	wg.Wait()
	return first
}

// writeSink writes trees as a long-layout table at dir through a
// ResultSink, blocks of random sizes in random order, and fails the test
// on error.
func writeSink(t testing.TB, dir string, trees []*paths.Tree, withParents bool, rng *rand.Rand, opts ...Option) *ResultSink {
	t.Helper()
	shape := ResultShape{Sources: treeSources(trees), Width: len(trees[0].Dist), MaxDistance: backend.NoCutoff, Parents: withParents}
	s, err := NewResultSink(dir, shape, testMeta, nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	narrow := rng.IntN(2) == 0
	for _, tr := range trees {
		for _, d := range tr.Dist {
			narrow = narrow && (d == paths.Unreachable || (d >= -int64(graph.Inf32) && d < int64(graph.Inf32)))
		}
	}
	if err := putShuffled(s, treeBlocks(trees, 1+rng.IntN(4), narrow, withParents), rng); err != nil {
		s.Abort()
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return s
}

// resultDir is where tests put a result table.
func resultDir(t testing.TB) string { return filepath.Join(t.TempDir(), "result") }
