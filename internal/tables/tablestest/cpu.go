package tablestest

import (
	"syscall"
	"testing"
	"time"
)

// CPUSeconds returns the CPU time of the process so far. Benchmarks report
// it beside wall time because on a shared machine it is the steadier of
// the two.
func CPUSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// ReportCPU reports the CPU seconds per iteration since start, a value of
// CPUSeconds taken before the loop.
func ReportCPU(b *testing.B, start float64) {
	b.ReportMetric((CPUSeconds()-start)/float64(b.N), "cpu-s/op")
}
