package backend

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

func TestCheckShapeNamesWhatIsWrong(t *testing.T) {
	sources := []int32{7, 3, 5}
	good := func() *Rows {
		return &Rows{First: 1, Sources: []int32{3, 5}, Width: 4, Dist32: make([]int32, 8), Parent: make([]int32, 8)}
	}
	if err := good().CheckShape(sources, 4, true); err != nil {
		t.Fatalf("a well-formed block: %v", err)
	}
	cases := []struct {
		name  string
		edit  func(*Rows)
		width int
		par   bool
		want  string
	}{
		{"width", func(*Rows) {}, 5, true, "width 4 for 5"},
		{"rows past the sources", func(r *Rows) { r.First = 2 }, 4, true, "rows 2..3 for 3 sources"},
		{"both widths", func(r *Rows) { r.Dist64 = make([]int64, 8) }, 4, true, "exactly one"},
		{"no distances", func(r *Rows) { r.Dist32 = nil }, 4, true, "exactly one"},
		{"short distances", func(r *Rows) { r.Dist32 = r.Dist32[:7] }, 4, true, "other than 8 cells"},
		{"missing parents", func(r *Rows) { r.Parent = nil }, 4, true, "0 parents"},
		{"unasked parents", func(*Rows) {}, 4, false, "not requested"},
		{"wrong source", func(r *Rows) { r.Sources = []int32{3, 6} }, 4, true, "source 6, want 5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := good()
			c.edit(r)
			err := r.CheckShape(sources, c.width, c.par)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want it to say %q", err, c.want)
			}
		})
	}
}

// A ragged block (a pair list grouped by source) must give each row as
// many values as its source has targets.
func TestCheckRaggedNamesTheRow(t *testing.T) {
	sources := []int32{4, 7}
	targets := [][]int32{{1, 2, 3}, {0}}
	block := &Rows{Sources: sources, Offsets: []int{0, 3, 4}, Dist32: make([]int32, 4)}
	req := &Request{CSR: &graph.CSR{N: 9}, Sources: sources, SourceTargets: targets}
	if err := block.Check(req); err != nil {
		t.Fatalf("a well-formed ragged block: %v", err)
	}
	if lo, hi := block.Span(1); lo != 3 || hi != 4 {
		t.Errorf("Span(1) = %d, %d, want 3, 4", lo, hi)
	}
	block.Offsets = []int{0, 2, 4}
	if err := block.Check(req); err == nil || !strings.Contains(err.Error(), "row 0 has 2 values for 3 targets") {
		t.Errorf("err = %v, want it to name row 0", err)
	}
}

// A block whose rows have no targets has no cells, so no distance type.
func TestCheckRaggedTakesEmptyRows(t *testing.T) {
	sources := []int32{4, 7}
	req := &Request{CSR: &graph.CSR{N: 9}, Sources: sources, SourceTargets: [][]int32{{}, {}}}
	block := &Rows{Sources: sources, Offsets: []int{0, 0, 0}}
	if err := block.Check(req); err != nil {
		t.Errorf("a block of two empty rows: %v", err)
	}
	block.Dist32, block.Dist64 = []int32{}, []int64{}
	if err := block.Check(req); err == nil {
		t.Error("a block with both distance types passed")
	}
}

// A request with targets takes its width from them.
func TestCheckTakesTheWidthFromTheTargets(t *testing.T) {
	block := &Rows{Sources: []int32{0}, Width: 2, Dist32: make([]int32, 2)}
	req := &Request{CSR: &graph.CSR{N: 5}, Sources: []int32{0}, Targets: []int32{4, 1}}
	if err := block.Check(req); err != nil {
		t.Fatalf("a block of the targets' width: %v", err)
	}
	req.Targets = []int32{4}
	if err := block.Check(req); err == nil {
		t.Error("a block wider than the targets passed")
	}
}

// Check takes the width from the request's graph, the CSR of a search
// request included.
func TestCheckTakesTheWidthFromTheRequest(t *testing.T) {
	block := &Rows{Sources: []int32{0}, Width: 4, Dist64: make([]int64, 4)}
	for _, c := range []struct {
		name string
		req  *Request
	}{
		{"edges", &Request{Edges: &graph.EdgeList{N: 5}, Sources: []int32{0}}},
		{"csr", &Request{CSR: &graph.CSR{N: 5}, Sources: []int32{0}}},
	} {
		if err := block.Check(c.req); err == nil || !strings.Contains(err.Error(), "width 4 for 5") {
			t.Errorf("%s: err = %v, want a width mismatch", c.name, err)
		}
	}
	if err := block.Check(&Request{CSR: &graph.CSR{N: 4}, Sources: []int32{0}}); err != nil {
		t.Errorf("a well-formed block: %v", err)
	}
}

func TestDistanceAndTreeWidenInt32(t *testing.T) {
	r := &Rows{Sources: []int32{0}, Width: 3, Dist32: []int32{0, graph.Inf32, 7}, Parent: []int32{paths.NoParent, paths.NoParent, 0}}
	tree := r.Tree(0)
	if !slices.Equal(tree.Dist, []int64{0, paths.Unreachable, 7}) || !slices.Equal(tree.Parent, r.Parent) {
		t.Errorf("tree %v %v", tree.Dist, tree.Parent)
	}
	tree.Parent[2] = 1
	if r.Parent[2] != 0 {
		t.Error("the tree shares the block's parents")
	}
}

// TestPoolNumbersBlocksAndBoundsTheProducer: Next numbers the blocks in
// order, waits while every block is out, and a release hands the block
// back; Drain returns them all.
func TestPoolNumbersBlocksAndBoundsTheProducer(t *testing.T) {
	blocks := []*Rows{{}, {}}
	p := NewPool(blocks)
	ctx := context.Background()
	a, seqA, _ := p.Next(ctx)
	b, seqB, _ := p.Next(ctx)
	if seqA != 0 || seqB != 1 {
		t.Fatalf("sequence %d, %d", seqA, seqB)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, _, err := p.Next(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next with every block out: %v, want to wait until the deadline", err)
	}
	got := make(chan int)
	go func() {
		_, seq, _ := p.Next(ctx)
		got <- seq
	}()
	a.Release()
	if seq := <-got; seq != 2 {
		t.Errorf("sequence after a release %d, want 2", seq)
	}
	b.Release()
	drained, err := p.Drain(ctx, 1)
	if err != nil || len(drained) != 1 || drained[0] != b {
		t.Errorf("Drain = %v, %v", drained, err)
	}
}

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
	full := func() (*Rows, *bool) {
		released := false
		r := &Rows{First: 1, Sources: []int32{2, 0}, Width: 4,
			Dist32: []int32{10, 11, 12, 13, 20, 21, 22, 23}, Parent: []int32{0, 1, 2, 3, 4, 5, 6, 7}}
		r.OnRelease(func(*Rows) { released = true })
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
			var got *Rows
			block, released := full()
			err := NarrowSink(c.req, func(r *Rows) error { got = r; return nil })(block)
			if err != nil {
				t.Fatal(err)
			}
			if !*released {
				t.Error("the full block was not released")
			}
			if err := got.Check(c.req); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Dist32, c.dist) || !slices.Equal(got.Parent, c.par) || !slices.Equal(got.Offsets, c.rowsOffset) {
				t.Errorf("got %v / %v / %v, want %v / %v / %v", got.Dist32, got.Parent, got.Offsets, c.dist, c.par, c.rowsOffset)
			}
		})
	}
}
