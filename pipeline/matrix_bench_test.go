package pipeline

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// BenchmarkMatrixWriter writes an 8192 x 8192 distance matrix (256 MiB)
// from blocks of 64 rows, as an all-pairs backend hands them over, with
// 32-bit and 64-bit distances, and reports the write rate in GB/s: the
// conversion, the writes and the SHA-256 that the manifest records.
func BenchmarkMatrixWriter(b *testing.B) {
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
				w, err := newMatrixWriter(filepath.Join(dir, MatrixName), n)
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
