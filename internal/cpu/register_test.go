package cpu

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
)

func TestRegistered(t *testing.T) {
	if !slices.Contains(backend.Names(), "cpu") {
		t.Fatalf("registered backends %v lack cpu", backend.Names())
	}
	f, _ := backend.Lookup("cpu")
	if ok, why := f.Available(); !ok || why == "" {
		t.Errorf("available %t (%q)", ok, why)
	}
	be, err := f.Open(backend.Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := be.Close(); err != nil {
			t.Errorf("closing the backend: %v", err)
		}
	}()
	if b, ok := be.(*Backend); !ok || b.Workers() != 3 || be.Name() != "cpu" {
		t.Errorf("Open gave %T %v", be, be.Device())
	}
	c, err := f.Choose(backend.Problem{N: 5, M: 4, MinWeight: -1, MaxWeight: 3, Sources: 1, Algorithm: backend.Algorithm{Name: backend.AlgorithmSSSP}})
	if err != nil || c.Algorithm.Name != backend.AlgorithmBellmanFord {
		t.Errorf("sssp with negative weights: %+v, %v", c, err)
	}
}

// TestEveryAlgorithmHasAnImplementation checks that every algorithm of the
// table that is not a policy has a CPU implementation registered by its
// file, so that Choose and Run never meet a listed name they cannot run.
func TestEveryAlgorithmHasAnImplementation(t *testing.T) {
	for _, name := range backend.Algorithms() {
		d, _ := backend.Describe(name)
		if _, ok := implementations.Lookup(name); ok == d.Policy {
			t.Errorf("%s: policy %t, CPU implementation registered %t", name, d.Policy, ok)
		}
	}
}
