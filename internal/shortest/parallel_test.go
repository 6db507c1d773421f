package shortest

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// TestForEach checks that every index runs once, and that the first
// error stops the loop and is returned.
func TestForEach(t *testing.T) {
	seen := make([]atomic.Int32, 1000)
	err := forEach(context.Background(), len(seen), 4, func() func(int) error {
		return func(i int) error {
			seen[i].Add(1)
			return nil
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range seen {
		if seen[i].Load() != 1 {
			t.Fatalf("index %d ran %d times", i, seen[i].Load())
		}
	}
	boom := errors.New("boom")
	var ran atomic.Int32
	err = forEach(context.Background(), 1000, 4, func() func(int) error {
		return func(i int) error {
			ran.Add(1)
			if i == 10 {
				return boom
			}
			return nil
		}
	})
	if !errors.Is(err, boom) || ran.Load() == 1000 {
		t.Fatalf("got %v after %d of 1000", err, ran.Load())
	}
	if err := forEach(context.Background(), 0, 4, nil); err != nil {
		t.Fatal(err)
	}
}
