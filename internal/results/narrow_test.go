package results

import (
	"slices"
	"testing"
)

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
		shape      *Shape
		dist, par  []int32
		rowsOffset []int
	}{
		{"shared", &Shape{Columns: ColumnsOf(Parent), Sources: []int32{1, 2, 0}, Targets: []int32{3, 0}}, []int32{13, 10, 23, 20}, []int32{3, 0, 7, 4}, nil},
		{"per source", &Shape{Columns: ColumnsOf(Parent), Sources: []int32{1, 2, 0}, SourceTargets: [][]int32{{0}, {1, 2, 1}, {3}}},
			[]int32{11, 12, 11, 23}, []int32{1, 2, 1, 7}, []int{0, 3, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got *Rows
			block, released := full()
			err := c.shape.NarrowSink(func(r *Rows) error { got = r; return nil })(block)
			if err != nil {
				t.Fatal(err)
			}
			if !*released {
				t.Error("the full block was not released")
			}
			if err := c.shape.Check(got, 4); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Dist32, c.dist) || !slices.Equal(got.Parent, c.par) || !slices.Equal(got.Offsets, c.rowsOffset) {
				t.Errorf("got %v / %v / %v, want %v / %v / %v", got.Dist32, got.Parent, got.Offsets, c.dist, c.par, c.rowsOffset)
			}
		})
	}
}

// collect is a Consumer that keeps the blocks it is given.
type collect struct{ got []*Rows }

func (c *collect) Put(r *Rows) error { c.got = append(c.got, r); return nil }
func (c *collect) Close() error      { return nil }
func (c *collect) Abort()            {}

// A Narrower copies a full block to the targets and releases it, and
// passes a block that is already narrowed as it is.
func TestNarrowerNarrowsOnlyFullBlocks(t *testing.T) {
	want := Shape{Sources: []int32{2, 0}, Targets: []int32{3, 1}}
	next := &collect{}
	nw := NewNarrower(want, 4, next)
	released := false
	full := &Rows{Sources: []int32{2, 0}, Width: 4, Dist32: []int32{10, 11, 12, 13, 20, 21, 22, 23}}
	full.OnRelease(func(*Rows) { released = true })
	narrowed := &Rows{Sources: []int32{2, 0}, Width: 2, Dist32: []int32{1, 2, 3, 4}}
	for _, b := range []*Rows{full, narrowed} {
		if err := nw.Put(b); err != nil {
			t.Fatal(err)
		}
	}
	if !released || len(next.got) != 2 || next.got[1] != narrowed {
		t.Fatalf("released %t, %d blocks passed, second unchanged %t", released, len(next.got), len(next.got) == 2 && next.got[1] == narrowed)
	}
	if got := next.got[0].Dist32; !slices.Equal(got, []int32{13, 11, 23, 21}) {
		t.Errorf("narrowed full block = %v, want [13 11 23 21]", got)
	}
	plain := &Rows{Sources: []int32{2}, Width: 4, Dist32: make([]int32, 4)}
	through := &collect{}
	if err := NewNarrower(Shape{Sources: []int32{2}}, 4, through).Put(plain); err != nil || through.got[0] != plain {
		t.Errorf("a shape without targets changed the block (err %v)", err)
	}
}
