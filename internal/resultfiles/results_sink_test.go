package resultfiles

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// randomTargets returns count vertices of 0..n-1 in a random order.
func randomTargets(rng *rand.Rand, n, count int) []int32 {
	targets := make([]int32, count)
	for i, v := range rng.Perm(n)[:count] {
		targets[i] = int32(v)
	}
	return targets
}

// randomCutoff returns the distance of a random cell, so that the cutoff
// itself occurs, or 0 when that cell has none.
func randomCutoff(rng *rand.Rand, trees []*paths.Tree) int64 {
	tr := trees[rng.IntN(len(trees))]
	if d := tr.Dist[rng.IntN(len(tr.Dist))]; d != paths.Unreachable && d >= 0 {
		return d
	}
	return 0
}

// sourceTrees returns count random trees over n vertices from the sources
// 0, 1, 2, ... (count <= n).
func sourceTrees(rng *rand.Rand, count, n int) []*paths.Tree {
	trees := make([]*paths.Tree, count)
	for s := range trees {
		trees[s] = randomTree(rng, n, int32(s), true, 0.2)
	}
	return trees
}

// randomTrees returns 1 to count random trees over n vertices from random
// sources, with int32-sized distances when narrow.
func randomTrees(rng *rand.Rand, n, count int, narrow bool) []*paths.Tree {
	trees := make([]*paths.Tree, 1+rng.IntN(count))
	for i := range trees {
		trees[i] = randomTree(rng, n, int32(rng.IntN(n)), true, rng.Float64())
	}
	if narrow {
		narrowTrees(trees)
	}
	return trees
}

// The files depend on the shape, the rows and the options only: not on the
// worker count, the block sizes, the order blocks arrive in or the width
// of their distances.
func TestResultSinkByteIdentical(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(3)
	trees := sourceTrees(rng, 7, 300)
	narrowTrees(trees)
	targets := randomTargets(rng, 300, 120)
	cutoff := int64(1 << 27)
	shapes := map[string]ResultShape{}
	for _, layout := range []Layout{Long, Wide} {
		shape := longShape(trees, true)
		shape.Layout = layout
		shapes[layout.String()] = shape
		shape.Targets, shape.MaxDistance = targets, cutoff
		shapes[layout.String()+" filtered"] = shape
	}
	runs := []struct {
		workers, per int
		narrow       bool
	}{{1, 1, false}, {2, 3, true}, {5, 7, false}}
	for _, format := range tableFormats {
		for name, shape := range shapes {
			var ref []tables.FileInfo
			for i, r := range runs {
				s := writeTrees(t, resultDir(t), shape, trees, r.narrow, r.per, tablestest.NewRand(uint64(i)),
					tables.WithFormat(format), tables.WithBatchRows(100), tables.WithPartRows(700), tables.WithConcurrency(r.workers))
				files := s.Files()
				if i == 0 {
					ref = files
					if len(ref) < 2 {
						t.Fatalf("%v %s: %d parts, want several", format, name, len(ref))
					}
					continue
				}
				if len(files) != len(ref) {
					t.Fatalf("%v %s: %d parts with %d workers, %d with 1", format, name, len(files), r.workers, len(ref))
				}
				for k := range files {
					tablestest.SameBytes(t, ref[k].Path, files[k].Path)
					if files[k].SHA256 != ref[k].SHA256 || files[k].Rows != ref[k].Rows {
						t.Errorf("%v %s part %d: tables.FileInfo differs", format, name, k)
					}
				}
			}
		}
	}
}

// filterCase is a choice of targets and cutoff for a result.
type filterCase struct {
	name    string
	targets []int32
	cutoff  int64
}

// filteredSink is one random result written through a sink by
// testFilteredSinks, ready to be read back from dir.
type filteredSink struct {
	trees       []*paths.Tree
	shape       ResultShape
	mem         *memory.CheckedAllocator
	dir         string
	withParents bool
}

// filteredSinkTest describes a test of filtered results: for every seed, a
// graph of up to maxVertices vertices and up to maxTrees trees, each of
// cases in every format with and without parents, written in the layout
// with batches of up to batchSpan(n) rows and parts of about a sixth of the
// cells plus up to partSpan(n), then handed to check.
type filteredSinkTest struct {
	layout                Layout
	maxVertices, maxTrees int
	cases                 func(targets []int32, cutoff int64) []filterCase
	batchSpan, partSpan   func(n int) int
	check                 func(t *testing.T, w filteredSink)
}

func testFilteredSinks(t *testing.T, ft filteredSinkTest) {
	for _, seed := range tablestest.Seeds(t) {
		rng := tablestest.NewRand(seed)
		n := 1 + rng.IntN(ft.maxVertices)
		narrow := rng.IntN(2) == 0
		trees := randomTrees(rng, n, ft.maxTrees, narrow)
		targets := randomTargets(rng, n, rng.IntN(n+1))
		cutoff := randomCutoff(rng, trees)
		for _, c := range ft.cases(targets, cutoff) {
			for _, format := range tableFormats {
				for _, withParents := range []bool{true, false} {
					t.Run(fmt.Sprintf("%d/%s/%v/parents=%v", seed, c.name, format, withParents), func(t *testing.T) {
						shape := longShape(trees, withParents)
						shape.Layout, shape.Targets, shape.MaxDistance = ft.layout, c.targets, c.cutoff
						// At most about six parts: every part costs a codec set-up.
						cells := len(trees) * len(shapeTargets(shape))
						batch, part := 1+rng.IntN(ft.batchSpan(n)), int64(1+cells/6+rng.IntN(ft.partSpan(n)))
						t.Logf("%d vertices, %d trees, %d targets, cutoff %d, batch %d, part %d",
							n, len(trees), len(shapeTargets(shape)), c.cutoff, batch, part)
						mem := tablestest.CheckedAllocator(t)
						dir := resultDir(t)
						// LZ4: zstd's set-up would dominate these small parts.
						s := writeTrees(t, dir, shape, trees, narrow, 1+rng.IntN(4), rng, tables.WithFormat(format), tables.WithCompression(tables.LZ4),
							tables.WithAllocator(mem), tables.WithBatchRows(batch), tables.WithPartRows(part), tables.WithConcurrency(1+rng.IntN(4)))
						checkFiles(t, s, dir, format, wantGroups(trees, shape, part, batch))
						ft.check(t, filteredSink{trees: trees, shape: shape, mem: mem, dir: dir, withParents: withParents})
					})
				}
			}
		}
	}
}

// Targets pick and order the vertices of every source; a cutoff drops the
// cells beyond it and the unreachable ones.
func TestResultSinkTargetsCutoff(t *testing.T) {
	t.Parallel()
	testFilteredSinks(t, filteredSinkTest{
		layout: Long, maxVertices: 300, maxTrees: 10,
		// A slice, not a map: the cases draw from rng in a replayable order.
		cases: func(targets []int32, cutoff int64) []filterCase {
			return []filterCase{
				{"targets", targets, results.NoCutoff},
				{"cutoff", nil, cutoff},
				{"both", targets, cutoff},
				{"zero cutoff", nil, 0},
			}
		},
		batchSpan: func(n int) int { return n + 20 },
		partSpan:  func(n int) int { return 2 * n },
		check: func(t *testing.T, w filteredSink) {
			got, hasParents := readCells(t, w.dir, tables.WithAllocator(w.mem))
			if hasParents != w.withParents {
				t.Errorf("parents %v, want %v", hasParents, w.withParents)
			}
			cutoff := w.shape.MaxDistance
			for _, r := range got {
				if cutoff != results.NoCutoff && (r.dist == paths.Unreachable || r.dist > cutoff) {
					t.Fatalf("row %+v is beyond the cutoff %d", r, cutoff)
				}
			}
			want := wantCells(w.trees, w.shape)
			if len(got) != len(want) {
				t.Fatalf("read %d rows, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("row %d is %+v, want %+v", i, got[i], want[i])
				}
			}
		},
	})
}

// The wide layout has one row per source, row groups and parts cut at
// whole sources, and null list entries for unreachable cells and those
// beyond the cutoff.
func TestResultSinkWide(t *testing.T) {
	t.Parallel()
	testFilteredSinks(t, filteredSinkTest{
		layout: Wide, maxVertices: 200, maxTrees: 8,
		cases: func(targets []int32, cutoff int64) []filterCase {
			return []filterCase{
				{"all", nil, results.NoCutoff},
				{"targets", targets, results.NoCutoff},
				{"cutoff", nil, cutoff},
				{"both", targets, cutoff},
			}
		},
		batchSpan: func(n int) int { return 3 * n },
		partSpan:  func(n int) int { return 4 * n },
		check: func(t *testing.T, w filteredSink) {
			got, want := readWide(t, w.dir, w.withParents, tables.WithAllocator(w.mem)), wantWide(w.trees, w.shape)
			if len(got) != len(want) {
				t.Fatalf("read %d rows, want one per source: %d", len(got), len(want))
			}
			for i := range want {
				if !sameWideRow(got[i], want[i]) {
					t.Fatalf("row %d is %+v, want %+v", i, got[i], want[i])
				}
			}
		},
	})
}

// A wide result without targets still has a row, of empty lists, per
// source.
func TestResultSinkWideNoTargets(t *testing.T) {
	t.Parallel()
	trees := randomTrees(tablestest.NewRand(4), 5, 3, false)
	shape := longShape(trees, true)
	shape.Layout, shape.Targets = Wide, []int32{}
	for _, format := range tableFormats {
		mem := tablestest.CheckedAllocator(t)
		dir := resultDir(t)
		s := writeTrees(t, dir, shape, trees, false, 2, tablestest.NewRand(1), tables.WithFormat(format), tables.WithAllocator(mem))
		checkFiles(t, s, dir, format, wantGroups(trees, shape, tables.DefaultPartRows, tables.DefaultBatchRows))
		if got := readWide(t, dir, true, tables.WithAllocator(mem)); !slices.EqualFunc(got, wantWide(trees, shape), sameWideRow) {
			t.Errorf("%v: read %+v", format, got)
		}
	}
}

// A malformed block fails Put and Close, and every block the sink took is
// released once, the held ones included.
func TestResultSinkPutErrors(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(7)
	trees := sourceTrees(rng, 4, 5)
	wider := []*paths.Tree{randomTree(rng, 6, 0, true, 0.2)}
	// Each returns a malformed block.
	bad := map[string]func() *results.Rows{
		"wrong width": func() *results.Rows { return treeBlocks(wider, 1, false, true)[0] },
		"wrong sources": func() *results.Rows {
			b := treeBlocks(trees[1:], 2, false, true)[0]
			b.First = 0
			return b
		},
		"rows beyond the sources": func() *results.Rows {
			b := treeBlocks(trees[2:], 2, false, true)[0]
			b.First = 3
			return b
		},
		"missing parents": func() *results.Rows { return treeBlocks(trees[:2], 2, false, false)[0] },
		"short parents": func() *results.Rows {
			b := treeBlocks(trees[:2], 2, false, true)[0]
			b.Parent = b.Parent[:9]
			return b
		},
		"no distances": func() *results.Rows {
			b := treeBlocks(trees[:2], 2, false, true)[0]
			b.Dist64 = nil
			return b
		},
		"both distances": func() *results.Rows {
			b := treeBlocks(trees[:2], 2, false, true)[0]
			b.Dist32 = make([]int32, 10)
			return b
		},
		"short distances": func() *results.Rows {
			b := treeBlocks(trees[:2], 2, true, true)[0]
			b.Dist32 = b.Dist32[:9]
			return b
		},
	}
	for name, mk := range bad {
		mem := tablestest.CheckedAllocator(t)
		s, err := NewResultSink(resultDir(t), longShape(trees, true), nil, nil, tables.WithConcurrency(1), tables.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		good := treeBlocks(trees, 2, false, true)
		b := mk()
		rel := countReleases(good[0], good[1], b)
		// Held: the only part waits for row 0.
		if err := s.Put(good[1]); err != nil {
			t.Fatal(err)
		}
		putErr := s.Put(b)
		if putErr == nil {
			t.Errorf("%s: Put accepted the block", name)
		}
		// The failure hands back at once what no part reads.
		rel.check(t, good[1], b)
		if err := s.Put(good[0]); err == nil {
			t.Errorf("%s: Put after a failure succeeded", name)
		}
		if err := s.Close(); err == nil || putErr == nil || err.Error() != putErr.Error() {
			t.Errorf("%s: Close returned %v, want Put's error %v", name, err, putErr)
		}
		rel.check(t, good[0], good[1], b)
	}
}

// A part that cannot be written fails Close with an error naming it, and
// every block is released.
func TestResultSinkWriteError(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(9)
	trees := sourceTrees(rng, 6, 50)
	for _, format := range tableFormats {
		for _, how := range []string{"folder removed", "device full"} {
			mem := tablestest.CheckedAllocator(t)
			dir := resultDir(t)
			// One worker: it opens part 0 and waits for the first block.
			s, err := NewResultSink(dir, longShape(trees, true), nil, nil, tables.WithFormat(format), tables.WithAllocator(mem),
				tables.WithConcurrency(1), tables.WithPartRows(50), tables.WithBatchRows(20))
			if err != nil {
				t.Fatal(err)
			}
			part := ""
			switch how {
			case "folder removed":
				waitForFile(t, filepath.Join(dir, "part-00000"+format.Ext()))
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
				part = filepath.Join(dir, "part-00001"+format.Ext())
			case "device full":
				if _, err := os.Stat("/dev/full"); err != nil {
					s.Abort()
					t.Logf("no /dev/full: %v", err)
					continue
				}
				// Writes to part 2 fail with ENOSPC.
				part = filepath.Join(dir, "part-00002"+format.Ext())
				if err := os.Symlink("/dev/full", part); err != nil {
					t.Fatal(err)
				}
			}
			blocks := treeBlocks(trees, 2, false, true)
			rel := countReleases(blocks...)
			putShuffled(s, blocks, rng)
			err = s.Close()
			if err == nil || !strings.Contains(err.Error(), part) {
				t.Errorf("%v, %s: Close returned %v, want an error naming %s", format, how, err, part)
			}
			rel.check(t, blocks...)
		}
	}
}

// waitForFile waits up to 10 s for path to appear.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for range 1000 {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s did not appear", path)
}

// Abort hands back every block the sink holds and stops its goroutines.
// Not parallel: it counts the process's goroutines.
func TestResultSinkAbort(t *testing.T) {
	before := runtime.NumGoroutine()
	rng := tablestest.NewRand(10)
	trees := sourceTrees(rng, 8, 100)
	for _, format := range tableFormats {
		for _, started := range []bool{false, true} {
			mem := tablestest.CheckedAllocator(t)
			s, err := NewResultSink(resultDir(t), longShape(trees, true), nil, nil, tables.WithFormat(format), tables.WithAllocator(mem),
				tables.WithConcurrency(4), tables.WithPartRows(150), tables.WithBatchRows(60))
			if err != nil {
				t.Fatal(err)
			}
			blocks := treeBlocks(trees, 2, false, true)
			rel := countReleases(blocks...)
			// Without the first block the first parts wait while the
			// store holds the rest; with it the writers are busy.
			first := 1
			if started {
				first = 0
			}
			for _, b := range blocks[first:] {
				if err := s.Put(b); err != nil {
					t.Fatal(err)
				}
			}
			s.Abort()
			rel.check(t, blocks[first:]...)
			if err := s.Close(); err == nil {
				t.Errorf("%v: Close after Abort succeeded", format)
			}
			if !started {
				if err := s.Put(blocks[0]); err == nil {
					t.Errorf("%v: Put after Abort succeeded", format)
				}
				rel.check(t, blocks...)
			}
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines after Abort, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// testFaultyHandOver writes 6 trees of 20 vertices from seed through sinks
// of 1 and 3 workers, handing over the blocks handOver makes of them in a
// random order; checkClose judges Close's error, and every block handed
// over must be released once.
func testFaultyHandOver(t *testing.T, seed uint64, handOver func(trees []*paths.Tree) []*results.Rows, checkClose func(workers int, err error)) {
	t.Helper()
	rng := tablestest.NewRand(seed)
	trees := sourceTrees(rng, 6, 20)
	for _, workers := range []int{1, 3} {
		mem := tablestest.CheckedAllocator(t)
		s, err := NewResultSink(resultDir(t), longShape(trees, true), nil, nil, tables.WithAllocator(mem),
			tables.WithCompression(tables.Uncompressed), tables.WithConcurrency(workers), tables.WithPartRows(30), tables.WithBatchRows(7))
		if err != nil {
			t.Fatal(err)
		}
		blocks := handOver(trees)
		rel := countReleases(blocks...)
		if err := putShuffled(s, blocks, rng); err != nil {
			t.Fatal(err)
		}
		checkClose(workers, s.Close())
		rel.check(t, blocks...)
	}
}

// Close names a row no block brought, and releases the others.
func TestResultSinkMissingBlock(t *testing.T) {
	t.Parallel()
	testFaultyHandOver(t, 11, func(trees []*paths.Tree) []*results.Rows {
		return slices.Delete(treeBlocks(trees, 1, false, true), 3, 4)
	}, func(workers int, err error) {
		if err == nil || !strings.Contains(err.Error(), "row 3") {
			t.Errorf("%d workers: Close returned %v, want an error naming row 3", workers, err)
		}
	})
}

// A block handed over twice is an error, and both copies are released.
func TestResultSinkRepeatedBlock(t *testing.T) {
	t.Parallel()
	testFaultyHandOver(t, 12, func(trees []*paths.Tree) []*results.Rows {
		return append(treeBlocks(trees, 2, false, true), treeBlocks(trees, 2, false, true)[1])
	}, func(workers int, err error) {
		if err == nil {
			t.Errorf("%d workers: Close accepted rows handed over twice", workers)
		}
	})
}

// With a producer limited to a pool of two blocks the sink must release
// blocks as parts consume them, not at the end, or the run cannot finish.
func TestResultSinkBackPressure(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(19)
	const n, per = 100, 2
	trees := sourceTrees(rng, 40, n)
	blocks := treeBlocks(trees, per, false, true) // 20 blocks
	for _, layout := range []Layout{Long, Wide} {
		for _, workers := range []int{1, 4} {
			// Parts smaller and larger than a block of per*n cells.
			for _, part := range []int64{150, 1000} {
				t.Run(fmt.Sprintf("%v/workers=%d/part=%d", layout, workers, part), func(t *testing.T) {
					mem := tablestest.CheckedAllocator(t)
					dir := resultDir(t)
					shape := longShape(trees, true)
					shape.Layout = layout
					s, err := NewResultSink(dir, shape, tablestest.Meta, nil, tables.WithAllocator(mem), tables.WithCompression(tables.Uncompressed),
						tables.WithConcurrency(workers), tables.WithPartRows(part), tables.WithBatchRows(70))
					if err != nil {
						t.Fatal(err)
					}
					pool := results.NewPool([]*results.Rows{{Width: n}, {Width: n}})
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					produced := make(chan error, 1)
					go func() { produced <- produce(ctx, pool, s, blocks) }()
					if err := <-produced; err != nil {
						s.Abort()
						t.Fatalf("producer: %v (the sink kept the blocks)", err)
					}
					if err := s.Close(); err != nil {
						t.Fatal(err)
					}
					if back, err := pool.Drain(ctx, 2); err != nil || len(back) != 2 {
						t.Fatalf("%d blocks back in the pool (%v), want 2", len(back), err)
					}
					checkFiles(t, s, dir, tables.Parquet, wantGroups(trees, shape, part, 70))
					if layout == Wide {
						if got := readWide(t, dir, true, tables.WithAllocator(mem)); !slices.EqualFunc(got, wantWide(trees, shape), sameWideRow) {
							t.Error("wide rows differ")
						}
						return
					}
					got, err := ReadResults(dir, tables.WithAllocator(mem))
					if err != nil {
						t.Fatal(err)
					}
					sameTrees(t, got.Trees, trees, true)
				})
			}
		}
	}
}

// produce copies the blocks src into the pool's blocks in order and hands
// them to s, as a backend would.
func produce(ctx context.Context, pool *results.Pool, s *ResultSink, src []*results.Rows) error {
	for range src {
		rows, k, err := pool.Next(ctx)
		if err != nil {
			return err
		}
		rows.First, rows.Sources = src[k].First, src[k].Sources
		rows.Dist64 = append(rows.Dist64[:0], src[k].Dist64...)
		rows.Parent = append(rows.Parent[:0], src[k].Parent...)
		if err := s.Put(rows); err != nil {
			return err
		}
	}
	return nil
}
