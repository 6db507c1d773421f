package pipeline

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
)

// TestComputeCH runs compute.algorithm: ch end to end on the shape graph,
// whose unreachable pairs the hierarchy must keep unreachable: whole rows,
// targets and a cutoff give the reference distances and parents that
// close tight arcs, and the manifest names the algorithm.
func TestComputeCH(t *testing.T) {
	g, ref := shapeGraph(t)
	for _, tc := range []struct {
		name    string
		targets string
		cutoff  int64
	}{
		{"whole rows", "all", backend.NoCutoff},
		{"targets", "59,7,0,33,7", backend.NoCutoff},
		{"cutoff", "all", 60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := shapeArgs(out, "-algorithm", "ch", "-sources", "5,2,30,0-3", "-targets", tc.targets)
			if tc.cutoff != backend.NoCutoff {
				args = append(args, "-max-distance", "60")
			}
			res := runCompute(t, loadCompute(t, "", args...))
			if res.Manifest.Algorithm != AlgorithmCH {
				t.Errorf("manifest algorithm %q", res.Manifest.Algorithm)
			}
			sources, _ := DenseNames(shapeN).Sources(KeySources, []string{"5", "2", "30", "0-3"})
			targets, _ := DenseNames(shapeN).Targets(KeyTargets, strings.Split(tc.targets, ","))
			rows, _, hasParents := readLong(t, filepath.Join(out, DistancesDir))
			if !hasParents {
				t.Fatal("no parent column")
			}
			compareLong(t, g, ref, rows, expectLong(ref, sources, targets, shapeN, tc.cutoff))
		})
	}
}

// TestComputeCHRefusesNegativeWeights: a contraction hierarchy needs
// non-negative weights, and the error says so as a configuration error
// of compute.algorithm.
func TestComputeCHRefusesNegativeWeights(t *testing.T) {
	negative := writeFile(t, "neg.gr", "p sp 3 3\na 1 2 4\na 2 3 -2\na 1 3 5\n")
	cfg := loadCompute(t, "", "-input", negative, "-algorithm", "ch", "-out", filepath.Join(t.TempDir(), "out"))
	_, err := Compute(context.Background(), cfg, quietLog, io.Discard)
	if ExitCode(err) != ExitConfig || !strings.Contains(err.Error(), "non-negative") || !strings.Contains(err.Error(), KeyAlgorithm) {
		t.Fatalf("err = %v (exit %d), want a configuration error of %s about non-negative weights", err, ExitCode(err), KeyAlgorithm)
	}
}
