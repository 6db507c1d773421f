package tables

import (
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// gridTrees returns trees shaped like those of a road network: count
// sources on a side x side grid, distances that grow with the grid distance
// plus random detours, parents pointing to a neighbour on the way to the
// source (chosen at random when two qualify), and an unreachable corner
// block. Random parts keep compression from seeing an artificially regular
// pattern.
func gridTrees(side, count int) []*paths.Tree {
	rng := newRand(42)
	n := side * side
	trees := make([]*paths.Tree, count)
	for i := range trees {
		s := (i * 7919) % n
		sx, sy := s%side, s/side
		t := paths.NewTree(int32(n), int32(s), true)
		for v := range n {
			x, y := v%side, v/side
			if x > side*7/8 && y > side*7/8 && v != s {
				continue
			}
			dx, dy := x-sx, y-sy
			t.Dist[v] = int64(abs(dx)+abs(dy))*1000 + rng.Int64N(int64(abs(dx)+abs(dy))*200+1)
			horizontal := dx != 0 && (dy == 0 || rng.IntN(2) == 0)
			switch {
			case horizontal && dx > 0:
				t.Parent[v] = int32(v - 1)
			case horizontal:
				t.Parent[v] = int32(v + 1)
			case dy > 0:
				t.Parent[v] = int32(v - side)
			case dy < 0:
				t.Parent[v] = int32(v + side)
			}
		}
		trees[i] = t
	}
	return trees
}

func abs(x int) int { return max(x, -x) }

// cpuSeconds returns the CPU time of the process so far. Benchmarks report
// it beside wall time because on a shared machine it is the steadier of
// the two.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

func reportCPU(b *testing.B, start float64) {
	b.ReportMetric((cpuSeconds()-start)/float64(b.N), "cpu-s/op")
}

func benchmarkResults(b *testing.B, trees []*paths.Tree, opts ...Option) {
	shape := ResultShape{Shape: results.Shape{Sources: treeSources(trees), MaxDistance: results.NoCutoff, Columns: results.ColumnsOf(results.Parent)}, Width: len(trees[0].Dist)}
	benchmarkBlocks(b, shape, treeBlocks(trees, 4, true, true), opts...)
}

// benchmarkBlocks writes blocks, the rows of shape, once per iteration and
// reports rows/s, CPU seconds and the bytes of the files per row.
func benchmarkBlocks(b *testing.B, shape ResultShape, blocks []*results.Rows, opts ...Option) {
	rows := int64(len(shape.Sources)) * int64(shape.Width)
	var bytes int64
	cpu := cpuSeconds()
	for b.Loop() {
		s, err := NewResultSink(filepath.Join(b.TempDir(), "result"), shape, map[string]string{"k": "v"}, nil, opts...)
		if err != nil {
			b.Fatal(err)
		}
		for _, blk := range blocks {
			if err := s.Put(blk); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		bytes = 0
		for _, f := range s.Files() {
			bytes += f.Bytes
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
	b.ReportMetric(float64(bytes)/float64(rows), "bytes/row")
}

// BenchmarkResultSink writes 64 trees of 262,144 vertices (16.8M rows) in
// each format and codec.
func BenchmarkResultSink(b *testing.B) {
	trees := gridTrees(512, 64)
	for _, format := range formats {
		for _, codec := range []Compression{Zstd, LZ4, Snappy, Uncompressed} {
			if format == Arrow && codec == Snappy {
				continue
			}
			b.Run(format.String()+"/"+codec.String(), func(b *testing.B) {
				benchmarkResults(b, trees, WithFormat(format), WithCompression(codec), WithPartRows(4<<20))
			})
		}
	}
}

// BenchmarkResultSinkZstdLevel writes the same trees as Parquet at zstd
// levels 1 and 3.
func BenchmarkResultSinkZstdLevel(b *testing.B) {
	trees := gridTrees(512, 64)
	for _, level := range []int{1, 3} {
		b.Run(fmt.Sprintf("level%d", level), func(b *testing.B) {
			benchmarkResults(b, trees, WithZstdLevel(level), WithPartRows(4<<20))
		})
	}
}

// BenchmarkReadResults reads back the 64 x 262,144 result.
func BenchmarkReadResults(b *testing.B) {
	trees := gridTrees(512, 64)
	for _, format := range formats {
		b.Run(format.String(), func(b *testing.B) {
			dir := resultDir(b)
			writeSink(b, dir, trees, true, newRand(1), WithFormat(format))
			cpu := cpuSeconds()
			for b.Loop() {
				if _, _, err := ScanResults(dir, func(*paths.Tree) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkGraph writes and reads an 8M-arc graph (a road-network-sized
// graph has ~58M).
func BenchmarkGraph(b *testing.B) {
	const n, m = 1 << 21, 8 << 20
	rng := newRand(1)
	e := graph.NewEdgeList(n, m)
	for i := range m {
		u := int32(i / 4)
		e.Add(u, min(n-1, max(0, u+rng.Int32N(64)-32)), 1+rng.Int32N(5000))
	}
	for _, format := range formats {
		files := GraphFilesIn(b.TempDir(), format)
		b.Run(fmt.Sprintf("write/%v", format), func(b *testing.B) {
			cpu := cpuSeconds()
			var infos []FileInfo
			for b.Loop() {
				var err error
				if infos, err = WriteGraph(files, e, nil, nil, WithFormat(format)); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(infos[0].Bytes)/m, "bytes/arc")
			b.ReportMetric(float64(m)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Marcs/s")
		})
		b.Run(fmt.Sprintf("read/%v", format), func(b *testing.B) {
			cpu := cpuSeconds()
			for b.Loop() {
				if _, _, _, err := ReadGraph(files); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(m)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Marcs/s")
		})
	}
}

// BenchmarkResultSinkCores writes 512 trees of 262,144 vertices (134M rows,
// 32 parts) as Parquet with the pipeline's default codec (Snappy), int32 distances as
// the all-pairs backends emit them, with 1 to 16 part writers: enough parts
// to keep every core of a large host encoding, to show how the writers
// scale.
func BenchmarkResultSinkCores(b *testing.B) {
	trees := gridTrees(512, 64)
	base := treeBlocks(trees, 4, true, true)
	const copies = 8
	var blocks []*results.Rows
	var sources []int32
	for c := range copies {
		for _, blk := range base {
			cp := *blk
			cp.First += c * len(trees)
			blocks = append(blocks, &cp)
		}
		sources = append(sources, treeSources(trees)...)
	}
	shape := ResultShape{Shape: results.Shape{Sources: sources, MaxDistance: results.NoCutoff, Columns: results.ColumnsOf(results.Parent)}, Width: len(trees[0].Dist)}
	for _, writers := range []int{1, 4, 8, 16} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			benchmarkBlocks(b, shape, blocks, WithPartRows(4<<20), WithCompression(Snappy), WithConcurrency(writers))
		})
	}
}

// BenchmarkSummarySink puts the 16.8M rows of BenchmarkResultSink through
// the summary consumer alone: the cost every run pays for the summary
// beside its distances table (compare with BenchmarkResultSink's
// cpu-s/op).
func BenchmarkSummarySink(b *testing.B) {
	trees := gridTrees(512, 64)
	shape := ResultShape{Shape: results.Shape{Sources: treeSources(trees), MaxDistance: results.NoCutoff, Columns: results.ColumnsOf(results.Parent)}, Width: len(trees[0].Dist)}
	blocks := treeBlocks(trees, 4, true, true)
	for _, blk := range blocks {
		blk.OnRelease(func(*results.Rows) {})
	}
	rows := int64(len(shape.Sources)) * int64(shape.Width)
	cpu := cpuSeconds()
	for b.Loop() {
		s, err := NewSummarySink(shape)
		if err != nil {
			b.Fatal(err)
		}
		for _, blk := range blocks {
			if err := s.Put(blk); err != nil {
				b.Fatal(err)
			}
		}
		if len(s.Rows()) != len(trees) {
			b.Fatal("summary rows missing")
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
}
