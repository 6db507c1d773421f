package tablestest

import (
	"testing"

	"github.com/pathflow/pathflow/internal/cputime"
)

// CPUSeconds returns the CPU time of the process so far (cputime.Process),
// 0 where it cannot be read. Benchmarks report it beside wall time because
// on a shared machine it is the steadier of the two.
func CPUSeconds() float64 {
	d, _ := cputime.Process()
	return d.Seconds()
}

// ReportCPU reports the CPU seconds per iteration since start, a value of
// CPUSeconds taken before the loop.
func ReportCPU(b *testing.B, start float64) {
	b.ReportMetric((CPUSeconds()-start)/float64(b.N), "cpu-s/op")
}
