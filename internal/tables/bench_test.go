package tables

import (
	"fmt"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// BenchmarkGraph writes and reads an 8M-arc graph (a road-network-sized
// graph has ~58M).
func BenchmarkGraph(b *testing.B) {
	const n, m = 1 << 21, 8 << 20
	rng := tablestest.NewRand(1)
	e := graph.NewEdgeList(n, m)
	for i := range m {
		u := int32(i / 4)
		e.Add(u, min(n-1, max(0, u+rng.Int32N(64)-32)), 1+rng.Int32N(5000))
	}
	for _, format := range formats {
		files := GraphFilesIn(b.TempDir(), format)
		b.Run(fmt.Sprintf("write/%v", format), func(b *testing.B) {
			cpu := tablestest.CPUSeconds()
			var infos []FileInfo
			for b.Loop() {
				var err error
				if infos, err = WriteGraph(files, e, nil, nil, WithFormat(format)); err != nil {
					b.Fatal(err)
				}
			}
			tablestest.ReportCPU(b, cpu)
			b.ReportMetric(float64(infos[0].Bytes)/m, "bytes/arc")
			b.ReportMetric(float64(m)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Marcs/s")
		})
		b.Run(fmt.Sprintf("read/%v", format), func(b *testing.B) {
			cpu := tablestest.CPUSeconds()
			for b.Loop() {
				if _, _, _, err := ReadGraph(files); err != nil {
					b.Fatal(err)
				}
			}
			tablestest.ReportCPU(b, cpu)
			b.ReportMetric(float64(m)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Marcs/s")
		})
	}
}
