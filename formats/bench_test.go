package formats

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
)

// benchDIMACS is a road-like DIMACS text of about 108 MB, built once: the
// vertex count of the full USA network (8-digit ids), arcs between nearby
// vertices of a 4-neighbour grid numbering plus a few long links, weights
// up to 6 digits.
var benchDIMACS = sync.OnceValue(func() []byte {
	const (
		n     = 23_947_347
		width = 4_900
		m     = 4_000_000
	)
	rng := rand.New(rand.NewPCG(1, 2))
	var buf bytes.Buffer
	buf.Grow(110 << 20)
	buf.WriteString("c road-like benchmark graph\np sp ")
	buf.WriteString(strconv.Itoa(n))
	buf.WriteByte(' ')
	buf.WriteString(strconv.Itoa(m))
	buf.WriteByte('\n')
	steps := [...]int{1, -1, width, -width}
	line := make([]byte, 0, 64)
	for i := 0; i < m; i++ {
		u := 1 + rng.IntN(n)
		v := u + steps[rng.IntN(len(steps))]
		if rng.IntN(64) == 0 {
			v = 1 + rng.IntN(n)
		}
		if v < 1 || v > n {
			v = u
		}
		line = append(line[:0], 'a', ' ')
		line = strconv.AppendInt(line, int64(u), 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(v), 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(1+rng.IntN(999_999)), 10)
		line = append(line, '\n')
		buf.Write(line)
	}
	return buf.Bytes()
})

// BenchmarkReadDIMACS measures DIMACS text to EdgeList throughput of one
// goroutine on one core (GOMAXPROCS 1 during the measurement).
func BenchmarkReadDIMACS(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	benchReadDIMACS(b)
}

// BenchmarkReadDIMACSParallel is BenchmarkReadDIMACS on every core
// (GOMAXPROCS), the way the ingest command reads.
func BenchmarkReadDIMACSParallel(b *testing.B) {
	benchReadDIMACS(b)
}

// benchReadDIMACS reads benchDIMACS with ReadDIMACS under the current
// GOMAXPROCS.
func benchReadDIMACS(b *testing.B) {
	text := benchDIMACS()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for b.Loop() {
		e, err := ReadDIMACS(bytes.NewReader(text), "bench.gr")
		if err != nil {
			b.Fatal(err)
		}
		if e.M() != 4_000_000 {
			b.Fatalf("read %d arcs", e.M())
		}
	}
}

// benchSNAP is a SNAP edge list of 2,000,000 lines (about 27 MB) over ids
// below 2,000,000, about as dense as the real SNAP files, built once.
var benchSNAP = sync.OnceValue(func() []byte {
	rng := rand.New(rand.NewPCG(3, 4))
	var buf bytes.Buffer
	buf.WriteString("# Directed graph\n# FromNodeId\tToNodeId\n")
	line := make([]byte, 0, 32)
	for range 2_000_000 {
		line = strconv.AppendInt(line[:0], int64(rng.IntN(2_000_000)), 10)
		line = append(line, '\t')
		line = strconv.AppendInt(line, int64(rng.IntN(2_000_000)), 10)
		line = append(line, '\n')
		buf.Write(line)
	}
	return buf.Bytes()
})

// BenchmarkReadSNAP measures SNAP text to EdgeList (renumbering included)
// on one core.
func BenchmarkReadSNAP(b *testing.B) {
	text := benchSNAP()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for b.Loop() {
		if _, _, err := ReadSNAP(bytes.NewReader(text), "bench.txt", SNAPOptions{Directed: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU starts counting the process's CPU time; the function it returns
// reports it per operation as cpu-s/op, which says what a parse costs when
// a shared machine makes wall times noisy.
func reportCPU(b *testing.B) func() {
	start := cpuSeconds()
	return func() { b.ReportMetric((cpuSeconds()-start)/float64(b.N), "cpu-s/op") }
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
