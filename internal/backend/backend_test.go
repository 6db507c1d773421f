package backend

import (
	"slices"
	"testing"
)

func TestRegistry(t *testing.T) {
	f := Factory{Name: "test-fake", Available: func() (bool, string) { return true, "" },
		Choose: func(Problem) (Choice, error) { return Choice{}, nil },
		Open:   func(Options) (Backend, error) { return nil, nil }}
	Register(f)
	defer Unregister(f.Name)
	if _, ok := Lookup(f.Name); !ok || !slices.Contains(Names(), f.Name) {
		t.Fatal("a registered backend is not listed")
	}
	for name, bad := range map[string]Factory{"twice": f, "incomplete": {Name: "test-incomplete"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", name)
				}
			}()
			Register(bad)
		}()
	}
}

func TestNegativeCycleErrorMessage(t *testing.T) {
	traced := &NegativeCycleError{Backend: "cpu", Vertex: 4, Cycle: []int32{4, 9}}
	untraced := &NegativeCycleError{Backend: "gpu", Vertex: 4}
	if got := traced.Error(); got != "cpu: negative cycle through vertex 4 (2 vertices)" {
		t.Errorf("traced: %q", got)
	}
	if got := untraced.Error(); got != "gpu: negative cycle through vertex 4" {
		t.Errorf("untraced: %q", got)
	}
}
