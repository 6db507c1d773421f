// Package harness is what the Go timing harnesses of scripts/compare
// (pathflow_table.go and the lddl module) share, so that they pick the
// same endpoints, time and print alike, and read DIMACS files the same
// way.
package harness

import (
	"bufio"
	"bytes"
	"fmt"
	"log"
	"os"
	"strconv"
	"syscall"
	"time"
)

// Span is count consecutive vertex ids from from.
func Span[T int32 | int64](from, count T) []T {
	v := make([]T, count)
	for i := range v {
		v[i] = from + T(i)
	}
	return v
}

// SplitMix64 is the generator every harness of scripts/compare uses for
// the random endpoints.
type SplitMix64 uint64

// Next advances the generator and returns its next value.
func (s *SplitMix64) Next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Random is the random1000 endpoints of an n-vertex graph: 1,000 sources
// and then 1,000 targets drawn from seed 1, vertex = draw % n.
func Random[T int32 | int64](n T) (sources, targets []T) {
	rng := SplitMix64(1)
	sources, targets = make([]T, 1000), make([]T, 1000)
	for i := range sources {
		sources[i] = T(rng.Next() % uint64(n))
	}
	for i := range targets {
		targets[i] = T(rng.Next() % uint64(n))
	}
	return sources, targets
}

// Timing is the best and mean wall time and the mean CPU time of reps
// calls, in seconds.
type Timing struct {
	Reps                    int
	Best, WallMean, CPUMean float64
}

// Time calls run reps times, timing each call.
func Time(reps int, run func()) Timing {
	best, wallTotal, cpuTotal := 1e300, 0.0, 0.0
	for range reps {
		w0, c0 := time.Now(), CPUSeconds()
		run()
		w := time.Since(w0).Seconds()
		best = min(best, w)
		wallTotal += w
		cpuTotal += CPUSeconds() - c0
	}
	return Timing{Reps: reps, Best: best, WallMean: wallTotal / float64(reps), CPUMean: cpuTotal / float64(reps)}
}

// Print prints a table's line: its name left-aligned in width columns,
// its size, the timing and the checksum (the sum of finite distances and
// the count of unreachable cells).
func (t Timing) Print(width int, name string, sources, targets int, sum, unreachable uint64) {
	fmt.Printf("%-*s %dx%d reps=%d wall_best_s=%.4f wall_mean_s=%.4f cpu_mean_s=%.4f sum=%d unreachable=%d\n",
		width, name, sources, targets, t.Reps, t.Best, t.WallMean, t.CPUMean, sum, unreachable)
}

// CPUSeconds is the process's user and system time so far (getrusage),
// 0 if it cannot be read.
func CPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// PeakRSSMB is the process's peak resident memory in MiB, 0 if it cannot
// be read.
func PeakRSSMB() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss / 1024
}

// EachLine calls body with the fields of each non-blank line of the file
// at path (lines up to 1 MiB); it stops the program on an error.
func EachLine(path string, body func(fields [][]byte)) {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		if fields := bytes.Fields(s.Bytes()); len(fields) > 0 {
			body(fields)
		}
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
}

// Atoi parses a decimal field; it stops the program on an error.
func Atoi(b []byte) int64 {
	v, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		log.Fatal(err)
	}
	return v
}
