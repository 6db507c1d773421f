package gpu

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
)

// defineRe matches a #define of an integer literal (decimal or hex).
var defineRe = regexp.MustCompile(`(?m)^#define\s+(\w+)\s+\(?(-?(?:0[xX][0-9a-fA-F]+|\d+))\)?\s*(?://.*)?$`)

// TestConstantsMatchTheKernels compares the Go constants that mirror the
// kernels' #defines with the headers, so that neither side changes alone.
func TestConstantsMatchTheKernels(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "kernels", "*.cuh"))
	if err != nil || len(files) == 0 {
		t.Fatalf("kernel headers: %v (%d found)", err, len(files))
	}
	defines := map[string]int64{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range defineRe.FindAllStringSubmatch(string(src), -1) {
			v, err := strconv.ParseInt(m[2], 0, 64)
			if err != nil {
				t.Fatalf("%s: %s: %v", f, m[1], err)
			}
			if old, ok := defines[m[1]]; ok && old != v {
				t.Errorf("%s is %d in one header and %d in %s", m[1], old, v, f)
			}
			defines[m[1]] = v
		}
	}
	for name, goValue := range map[string]int64{
		"INF32":       int64(graph.Inf32),
		"FAST_TILE":   FastTile,
		"BLOCKED_MAX": MaxTileEdge,
		"NF_ABORT":    nfAbort,
		"NF_STEPS":    nfSteps,
		"NF_SPLITS":   nfSplits,
		"NF_OVERFLOW": nfOverflow,
		"NF_RELAXED":  nfRelaxed,
		"NF_IMPROVED": nfImproved,
		"NF_STATE":    nearFarStateInts,
		"BT_LANES":    batchLanes,
		"BT_STATE":    batchStateInts,
		"BT_ABORT":    btAbort,
		"BT_STEPS":    btSteps,
		"BT_SPLITS":   btSplits,
		"BT_OVERFLOW": btOverflow,
		"BT_RELAXED":  btRelaxed,
		"BT_IMPROVED": btImproved,
		"BT_STOPPED":  btStopped,
	} {
		c, ok := defines[name]
		if !ok {
			t.Errorf("no #define %s in the kernel headers", name)
			continue
		}
		if c != goValue {
			t.Errorf("%s is %d in the kernels and %d in Go", name, c, goValue)
		}
	}
	// PACK_INF is an expression: ((1 << bits) - 1).
	all, err := os.ReadFile(filepath.Join("..", "..", "kernels", "floyd_warshall_fast.cuh"))
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
