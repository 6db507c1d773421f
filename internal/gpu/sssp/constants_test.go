package sssp

import (
	"path/filepath"
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/gputest"
	"github.com/pathflow/pathflow/internal/graph"
)

// TestConstantsMatchTheKernels compares the Go constants that mirror the
// search kernels' #defines with the headers, so that neither side changes
// alone.
func TestConstantsMatchTheKernels(t *testing.T) {
	defines, err := gputest.KernelDefines(filepath.Join("..", "..", "..", "kernels"))
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range gputest.CheckDefines(defines, map[string]int64{
		"INF32":              int64(graph.Inf32),
		"NF_ABORT":           nfAbort,
		"NF_STEPS":           nfSteps,
		"NF_SPLITS":          nfSplits,
		"NF_OVERFLOW":        nfOverflow,
		"NF_RELAXED":         nfRelaxed,
		"NF_IMPROVED":        nfImproved,
		"NF_STATE":           nearFarStateInts,
		"BT_LANES":           batchLanes,
		"BT_STATE":           batchStateInts,
		"BT_ABORT":           btAbort,
		"BT_STEPS":           btSteps,
		"BT_SPLITS":          btSplits,
		"BT_OVERFLOW":        btOverflow,
		"BT_RELAXED":         btRelaxed,
		"BT_IMPROVED":        btImproved,
		"BT_STOPPED":         btStopped,
		"BT_METRIC_OVERFLOW": btMetricOverflow,
		"BT_CELL_CHUNK":      batchCellChunk,
	}) {
		t.Error(err)
	}
}
