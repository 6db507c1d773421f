//go:build cuda

package compute

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/pathflow/pathflow/internal/resultfiles"
)

// TestGPUSummaryOnlyEqualsCPU writes only the summary (output.distances
// off) on the GPU, whose rows leave the device as their summaries, and on
// the CPU, whose workers reduce their blocks, and compares the tables bit
// for bit: whole ch trees and near-far searches, with and without a
// cutoff, and rows narrowed to targets (reduced on the host).
func TestGPUSummaryOnlyEqualsCPU(t *testing.T) {
	const graphYAML = "input:\n  generate: road:side=60,seed=3\n"
	runs := []struct{ name, gpuAlg, cpuAlg, extra string }{
		{"ch trees", "ch", "ch", "compute:\n  sources: [\"0-70\"]\n"},
		{"ch trees within a cutoff", "ch", "dijkstra", "compute:\n  sources: [\"5-40\"]\n  max_distance: 4000\n"},
		{"near-far trees", "sssp", "dijkstra", "compute:\n  sources: [\"0-40\", \"3000\"]\n"},
		{"near-far within a cutoff", "sssp", "dijkstra", "compute:\n  sources: [\"100-140\"]\n  max_distance: 2500\n"},
		{"targets", "ch", "dijkstra", "compute:\n  sources: [\"0-40\"]\n  targets: [\"10-500\"]\n"},
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			var rows [2][]resultfiles.SummaryRow
			for i, b := range []struct{ backend, alg string }{{"gpu", r.gpuAlg}, {"cpu", r.cpuAlg}} {
				out := filepath.Join(t.TempDir(), b.backend)
				cfg := loadCompute(t, graphYAML+r.extra, "-backend", b.backend, "-algorithm", b.alg, "-out", out, "-quiet",
					"-summary", "-distances=false")
				res := runCompute(t, cfg)
				if res.Manifest.Backend != b.backend {
					t.Fatalf("ran on %s, want %s", res.Manifest.Backend, b.backend)
				}
				got, _, err := resultfiles.ReadSummary(filepath.Join(out, "summary.parquet"))
				if err != nil {
					t.Fatal(err)
				}
				rows[i] = got
			}
			if len(rows[0]) != len(rows[1]) || len(rows[0]) == 0 {
				t.Fatalf("%d summary rows on the GPU, %d on the CPU", len(rows[0]), len(rows[1]))
			}
			for i, g := range rows[0] {
				c := rows[1][i]
				if g.Source != c.Source || g.Reachable != c.Reachable || g.Eccentricity != c.Eccentricity ||
					math.Float64bits(g.Closeness) != math.Float64bits(c.Closeness) {
					t.Errorf("row %d: GPU %+v, CPU %+v", i, g, c)
				}
			}
		})
	}
}
