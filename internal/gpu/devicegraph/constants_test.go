package devicegraph

import (
	"path/filepath"
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/gputest"
)

// TestConstantsMatchTheKernels compares the Go constants that mirror the
// device layer's kernels' #defines with the headers.
func TestConstantsMatchTheKernels(t *testing.T) {
	defines, err := gputest.KernelDefines(filepath.Join("..", "..", "..", "kernels"))
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range gputest.CheckDefines(defines, map[string]int64{
		"PF_THREADS": prefixThreads,
		"PF_ITEMS":   prefixItems,
	}) {
		t.Error(err)
	}
}
