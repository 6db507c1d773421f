package results

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
	if err := good().CheckShape(sources, 4, ColumnsOf(Parent)); err != nil {
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
			err := r.CheckShape(sources, c.width, ColumnsOf().With(Parent, c.par))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want it to say %q", err, c.want)
			}
		})
	}
}

func TestDistanceAndTreeWidenInt32(t *testing.T) {
	r := &Rows{Sources: []int32{0}, Width: 3, Dist32: []int32{0, graph.Inf32, 7}, Parent: []int32{paths.NoParent, paths.NoParent, 0}}
	tree := r.Tree(0).Copy()
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
