package results

import (
	"errors"
	"testing"
)

// recorder is a consumer that notes the blocks it was given and releases
// them, failing when told to.
type recorder struct {
	got  []*Rows
	fail error
}

func (c *recorder) Put(r *Rows) error {
	c.got = append(c.got, r)
	r.Release()
	return c.fail
}
func (c *recorder) Close() error { return nil }
func (c *recorder) Abort()       {}

// Each consumer reads the block's rows through its own handle, and the
// block goes back to its producer once, after the last handle; after a
// consumer fails, the later ones are skipped and the block still goes
// back once.
func TestFanoutReleasesTheBlockOnceAfterEveryConsumer(t *testing.T) {
	for _, failAt := range []int{-1, 0, 1} {
		cs := []*recorder{{}, {}, {}}
		if failAt >= 0 {
			cs[failAt].fail = errors.New("full disk")
		}
		released := 0
		block := &Rows{First: 3, Sources: []int32{7}, Width: 1, Dist32: []int32{0}}
		block.OnRelease(func(*Rows) { released++ })
		err := Fanout{cs[0], cs[1], cs[2]}.Put(block)
		if (err != nil) != (failAt >= 0) {
			t.Errorf("fail at %d: err = %v", failAt, err)
		}
		if released != 1 {
			t.Errorf("fail at %d: block released %d times, want once", failAt, released)
		}
		for k, c := range cs {
			want := 1
			if failAt >= 0 && k > failAt {
				want = 0
			}
			if len(c.got) != want {
				t.Fatalf("fail at %d: consumer %d got %d blocks, want %d", failAt, k, len(c.got), want)
			}
			if want == 1 && (c.got[0] == block || c.got[0].First != 3 || c.got[0].Sources[0] != 7) {
				t.Errorf("fail at %d: consumer %d got %+v, want a handle on the block", failAt, k, c.got[0])
			}
		}
	}
}
