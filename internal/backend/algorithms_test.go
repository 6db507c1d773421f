package backend

import (
	"slices"
	"testing"
)

// TestAlgorithmTable pins the table's facts that callers rely on: the
// order compute.algorithm lists, the policies, and the one all-pairs
// algorithm with its progress unit.
func TestAlgorithmTable(t *testing.T) {
	want := []string{AlgorithmAuto, AlgorithmDijkstra, AlgorithmBellmanFord, AlgorithmSSSP, AlgorithmFloydWarshall, AlgorithmJohnson, AlgorithmCH}
	if got := Algorithms(); !slices.Equal(got, want) {
		t.Fatalf("Algorithms() = %v, want %v", got, want)
	}
	for _, name := range want {
		d, ok := Describe(name)
		if !ok || d.Name != name {
			t.Fatalf("Describe(%q) = %+v, %t", name, d, ok)
		}
		policy := name == AlgorithmAuto || name == AlgorithmSSSP
		unit := "sources"
		if name == AlgorithmFloydWarshall {
			unit = "pivots"
		}
		got := ProgressUnit(Choice{AllPairs: d.AllPairs})
		if d.Policy != policy || d.AllPairs != (name == AlgorithmFloydWarshall) || got != unit {
			t.Errorf("%s: %+v, unit %s", name, d, got)
		}
	}
	if _, ok := Describe("bfs"); ok {
		t.Error("an unknown name has a descriptor")
	}
}

// TestImplementationsRegisterOnlyTableNames checks that a backend's table
// takes each listed algorithm once, lists them in the table's order, and
// refuses names the algorithm table lacks.
func TestImplementationsRegisterOnlyTableNames(t *testing.T) {
	var impls Implementations[int]
	impls.Register(AlgorithmJohnson, 2)
	impls.Register(AlgorithmDijkstra, 1)
	if got := impls.Names(); !slices.Equal(got, []string{AlgorithmDijkstra, AlgorithmJohnson}) {
		t.Errorf("Names() = %v", got)
	}
	if v, ok := impls.Lookup(AlgorithmJohnson); !ok || v != 2 {
		t.Errorf("Lookup(johnson) = %d, %t", v, ok)
	}
	for _, name := range []string{"bfs", AlgorithmDijkstra} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("registering %q did not panic", name)
				}
			}()
			impls.Register(name, 3)
		}()
	}
}
