package resultfiles

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// gridTrees returns trees shaped like those of a road network: count
// sources on a side x side grid, distances that grow with the grid distance
// plus random detours, parents pointing to a neighbour on the way to the
// source (chosen at random when two qualify), and an unreachable corner
// block. Random parts keep compression from seeing an artificially regular
// pattern.
func gridTrees(side, count int) []*paths.Tree {
	rng := tablestest.NewRand(42)
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

func benchmarkResults(b *testing.B, trees []*paths.Tree, opts ...tables.Option) {
	shape := ResultShape{Shape: results.Shape{Sources: treeSources(trees), MaxDistance: results.NoCutoff, Columns: results.ColumnsOf(results.Parent)}, Width: len(trees[0].Dist)}
	benchmarkBlocks(b, shape, treeBlocks(trees, 4, true, true), opts...)
}

// benchmarkBlocks writes blocks, the rows of shape, once per iteration and
// reports rows/s, CPU seconds and the bytes of the files per row.
func benchmarkBlocks(b *testing.B, shape ResultShape, blocks []*results.Rows, opts ...tables.Option) {
	rows := int64(len(shape.Sources)) * int64(shape.Width)
	var bytes int64
	cpu := tablestest.CPUSeconds()
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
	tablestest.ReportCPU(b, cpu)
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
	b.ReportMetric(float64(bytes)/float64(rows), "bytes/row")
}

// BenchmarkResultSink writes 64 trees of 262,144 vertices (16.8M rows) in
// each format and codec.
func BenchmarkResultSink(b *testing.B) {
	trees := gridTrees(512, 64)
	for _, format := range tableFormats {
		for _, codec := range []tables.Compression{tables.Zstd, tables.LZ4, tables.Snappy, tables.Uncompressed} {
			if format == tables.Arrow && codec == tables.Snappy {
				continue
			}
			b.Run(format.String()+"/"+codec.String(), func(b *testing.B) {
				benchmarkResults(b, trees, tables.WithFormat(format), tables.WithCompression(codec), tables.WithPartRows(4<<20))
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
			benchmarkResults(b, trees, tables.WithZstdLevel(level), tables.WithPartRows(4<<20))
		})
	}
}

// BenchmarkReadResults reads back the 64 x 262,144 result.
func BenchmarkReadResults(b *testing.B) {
	trees := gridTrees(512, 64)
	for _, format := range tableFormats {
		b.Run(format.String(), func(b *testing.B) {
			dir := resultDir(b)
			writeSink(b, dir, trees, true, tablestest.NewRand(1), tables.WithFormat(format))
			cpu := tablestest.CPUSeconds()
			for b.Loop() {
				if _, _, err := ScanResults(dir, func(*paths.Tree) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
			tablestest.ReportCPU(b, cpu)
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
			benchmarkBlocks(b, shape, blocks, tables.WithPartRows(4<<20), tables.WithCompression(tables.Snappy), tables.WithConcurrency(writers))
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
	cpu := tablestest.CPUSeconds()
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
	tablestest.ReportCPU(b, cpu)
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
}

// BenchmarkDistanceMatrixWriter writes an 8192 x 8192 distance matrix (256 MiB)
// from blocks of 64 rows, as an all-pairs backend hands them over, with
// 32-bit and 64-bit distances, and reports the write rate in GB/s: the
// conversion, the writes and the SHA-256 that the manifest records.
func BenchmarkDistanceMatrixWriter(b *testing.B) {
	const n, blockRows = 8192, 64
	for _, width := range []int{32, 64} {
		b.Run(fmt.Sprintf("dist%d", width), func(b *testing.B) {
			blocks := make([]*results.Rows, n/blockRows)
			for k := range blocks {
				r := &results.Rows{First: k * blockRows, Sources: make([]int32, blockRows), Width: n}
				if width == 32 {
					r.Dist32 = make([]int32, blockRows*n)
					for i := range r.Dist32 {
						r.Dist32[i] = int32(i % 1000)
					}
					r.Dist32[7] = graph.Inf32
				} else {
					r.Dist64 = make([]int64, blockRows*n)
					for i := range r.Dist64 {
						r.Dist64[i] = int64(i % 1000)
					}
				}
				r.OnRelease(func(*results.Rows) {})
				blocks[k] = r
			}
			dir := b.TempDir()
			for b.Loop() {
				w, err := NewDistanceMatrixWriter(filepath.Join(dir, matrixName), n)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range blocks {
					if err := w.Put(r); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(4*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}
