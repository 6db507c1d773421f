package backend

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/results"
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

// NarrowSink hands over the targets' columns of full rows, shared or per
// source, and releases the full block.
func TestNarrowSinkKeepsTheTargetsColumns(t *testing.T) {
	full := func() (*results.Rows, *bool) {
		released := false
		r := &results.Rows{First: 1, Sources: []int32{2, 0}, Width: 4,
			Dist32: []int32{10, 11, 12, 13, 20, 21, 22, 23}, Parent: []int32{0, 1, 2, 3, 4, 5, 6, 7}}
		r.OnRelease(func(*results.Rows) { released = true })
		return r, &released
	}
	for _, c := range []struct {
		name       string
		req        *Request
		dist, par  []int32
		rowsOffset []int
	}{
		{"shared", &Request{Parents: true, Sources: []int32{1, 2, 0}, Targets: []int32{3, 0}}, []int32{13, 10, 23, 20}, []int32{3, 0, 7, 4}, nil},
		{"per source", &Request{Parents: true, Sources: []int32{1, 2, 0}, SourceTargets: [][]int32{{0}, {1, 2, 1}, {3}}},
			[]int32{11, 12, 11, 23}, []int32{1, 2, 1, 7}, []int{0, 3, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got *results.Rows
			block, released := full()
			err := NarrowSink(c.req, func(r *results.Rows) error { got = r; return nil })(block)
			if err != nil {
				t.Fatal(err)
			}
			if !*released {
				t.Error("the full block was not released")
			}
			if err := c.req.CheckRows(got); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Dist32, c.dist) || !slices.Equal(got.Parent, c.par) || !slices.Equal(got.Offsets, c.rowsOffset) {
				t.Errorf("got %v / %v / %v, want %v / %v / %v", got.Dist32, got.Parent, got.Offsets, c.dist, c.par, c.rowsOffset)
			}
		})
	}
}
