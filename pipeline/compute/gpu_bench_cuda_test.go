//go:build cuda

package compute

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
)

// BenchEnv holds the compute command's arguments for BenchmarkComputeRun,
// separated by spaces, e.g. "-generate grid:side=4900,lo=1,hi=1000,seed=1
// -sources 0 -backend gpu".
//
// It configures the benchmark, not the job, so it stays out of the
// PATHFLOW_ prefix, where a variable that sets no key draws a warning.
const BenchEnv = "BENCH_COMPUTE_ARGS"

// BenchmarkComputeRun runs one whole compute stage (graph load, backend,
// output) with the arguments in $BENCH_COMPUTE_ARGS, so that a device
// run can profile the job in process (-test.cpuprofile) the way the
// command runs it.
func BenchmarkComputeRun(b *testing.B) {
	args := strings.Fields(os.Getenv(BenchEnv))
	if len(args) == 0 {
		b.Skip(BenchEnv + " is empty")
	}
	for b.Loop() {
		out := filepath.Join(b.TempDir(), "out")
		l, err := config.Load("compute", Keys(), append(args, "-out", out, "-quiet"), io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		cfg, err := ConfigFrom(l)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Run(context.Background(), cfg, stagetest.QuietLog, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		for stage, s := range res.Manifest.StagesSeconds {
			b.Logf("stage %s: %.3f s", stage, s)
		}
	}
}
