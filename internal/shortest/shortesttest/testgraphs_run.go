package shortesttest

import (
	"errors"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/paths/testgraphs"
)

// CheckRun checks what a backend's run over g.Sources returned: err and
// trees, trees[i] the answer from g.Sources[i]. Where cycleExpected (g
// has a negative cycle the run must find) err must be a
// *backend.NegativeCycleError and CheckRun returns false: there are no
// answers to look at further. Otherwise err must be nil and every tree
// pass g.Check; it returns true.
func CheckRun(t testing.TB, g *testgraphs.Graph, err error, trees []*paths.Tree, cycleExpected bool) bool {
	t.Helper()
	if cycleExpected {
		var cycle *backend.NegativeCycleError
		if !errors.As(err, &cycle) {
			t.Fatalf("negative cycle: %v, want a *backend.NegativeCycleError", err)
		}
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, tree := range trees {
		if err := g.Check(i, tree.Dist, tree.Parent); err != nil {
			t.Error(err)
		}
	}
	return true
}
