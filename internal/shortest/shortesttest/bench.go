package shortesttest

import (
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/cputime"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
)

// Fixture builds a benchmark graph once per test binary.
type Fixture[T any] struct {
	once  sync.Once
	value T
	err   error
	Build func() (T, error)
}

// Get builds the value on first use and fails b if that failed.
func (f *Fixture[T]) Get(b *testing.B) T {
	f.once.Do(func() { f.value, f.err = f.Build() })
	if f.err != nil {
		b.Fatal(f.err)
	}
	return f.value
}

// ReportCPU adds the CPU time per operation (all threads) to a benchmark's
// output: beside the wall time it shows the work done, which other load on
// the machine does not inflate.
func ReportCPU(b *testing.B, run func()) {
	start, ok := cputime.Process()
	for b.Loop() {
		run()
	}
	if end, ok2 := cputime.Process(); ok && ok2 && b.N > 0 {
		b.ReportMetric((end-start).Seconds()/float64(b.N), "cpu-s/op")
	}
}

// GridFixture is the side x side grid of generate.Grid (weights 1..1000,
// seed 1) in compressed sparse rows.
func GridFixture(side int32) *Fixture[*graph.CSR] {
	return &Fixture[*graph.CSR]{Build: func() (*graph.CSR, error) {
		e, err := generate.Grid(side, 1, 1000, 1)
		if err != nil {
			return nil, err
		}
		return graph.BuildCSR(e), nil
	}}
}
