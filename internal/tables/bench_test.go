package tables

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/graph"
)

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
