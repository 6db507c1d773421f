package allpairs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/gputest"
	"github.com/pathflow/pathflow/internal/graph"
)

// kernelDir holds the kernels' sources, from this package's directory.
var kernelDir = filepath.Join("..", "..", "..", "kernels")

// TestConstantsMatchTheKernels compares the Go constants that mirror the
// Floyd-Warshall kernels' #defines with the headers, so that neither side
// changes alone.
func TestConstantsMatchTheKernels(t *testing.T) {
	defines, err := gputest.KernelDefines(kernelDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range gputest.CheckDefines(defines, map[string]int64{
		"INF32":       int64(graph.Inf32),
		"FAST_TILE":   FastTile,
		"BLOCKED_MAX": MaxTileEdge,
	}) {
		t.Error(err)
	}
	// PACK_INF is an expression: ((1 << bits) - 1).
	all, err := os.ReadFile(filepath.Join(kernelDir, "floyd_warshall_fast.cuh"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`#define PACK_INF \(\(1 << (\d+)\) - 1\)`).FindSubmatch(all)
	if m == nil {
		t.Fatal("no #define PACK_INF ((1 << bits) - 1) in floyd_warshall_fast.cuh")
	}
	bits, err := strconv.Atoi(string(m[1]))
	if err != nil {
		t.Fatalf("PACK_INF's bits: %v", err)
	}
	if PackedDistanceLimit != 1<<bits-1 || int64(bits)+defines["PACK_SHIFT"] > 30 {
		t.Errorf("PackedDistanceLimit %d, PACK_INF 2^%d - 1 and PACK_SHIFT %d disagree", PackedDistanceLimit, bits, defines["PACK_SHIFT"])
	}
}
