package cpu

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// freshProcessEnv marks a test binary a test started to measure in a
// process of its own.
const freshProcessEnv = "PATHFLOW_CPU_TEST_FRESH_PROCESS"

// residentBytes reads the process's resident memory from /proc (Linux).
func residentBytes(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm:", err)
	}
	fields := strings.Fields(string(b))
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// A run of one search to a target next to its source, on a graph of many
// vertices whose arrays were recorded valid at ingest, costs what the
// search touches: its scratch rows, heap index and target marks are fresh
// memory, never filled, so the process's resident memory grows by far
// less than one array of n distances. Filling them (8 bytes a vertex for
// the distances, 4 for the parents, 4 for the heap index) would add 128
// MiB here. It measures in a fresh process: in one where other tests
// freed large blocks, the Go runtime itself clears the reused memory.
func TestOneTargetSearchTouchesWhatItReaches(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a graph of 8M vertices")
	}
	if os.Getenv(freshProcessEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
		cmd.Env = append(os.Environ(), freshProcessEnv+"=1")
		out, err := cmd.CombinedOutput()
		t.Logf("in a fresh process:\n%s", out)
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	const n = 1 << 23
	// Arcs 0 -> 1 -> 2 only: the offsets are the one O(n) array, and they
	// are filled (resident) before the measurement.
	c := &graph.CSR{N: n, Offsets: make([]int64, n+1), Targets: []int32{1, 2}, Weights: []int32{3, 4}}
	c.Offsets[1] = 1
	for v := 2; v <= n; v++ {
		c.Offsets[v] = 2
	}
	c.Record(graph.Recorded{MinWeight: 3, MaxWeight: 4, Valid: true})
	choice, err := Choose(backend.Problem{N: n, M: 2, MinWeight: 3, MaxWeight: 4, Sources: 1,
		Algorithm: backend.Algorithm{Name: backend.AlgorithmDijkstra}})
	if err != nil {
		t.Fatal(err)
	}
	req := backend.Request{Shape: results.Shape{Sources: []int32{0}, Targets: []int32{1}, Columns: results.ColumnsOf(results.Parent), MaxDistance: results.NoCutoff}, CSR: c, Choice: choice}
	runtime.GC()
	before := residentBytes(t)
	var dist int64
	var parent int32
	err = New(2).Run(context.Background(), req, func(rows *results.Rows) error {
		dist, parent = rows.Dist64[0], rows.Parent[0]
		rows.Release()
		return nil
	})
	grew := residentBytes(t) - before
	if err != nil {
		t.Fatal(err)
	}
	if dist != 3 || parent != 0 {
		t.Fatalf("distance and parent of 1: %d, %d, want 3, 0", dist, parent)
	}
	if limit := int64(8 << 20); grew > limit {
		t.Errorf("resident memory grew by %d MiB in a one-target search on %d vertices, want under %d MiB", grew>>20, n, limit>>20)
	}
	t.Logf("resident memory grew by %d KiB", grew>>10)
}
