//go:build unix

package cputime

import "testing"

// TestProcessCountsWork checks that a busy loop shows as CPU time.
func TestProcessCountsWork(t *testing.T) {
	start, ok := Process()
	if !ok {
		t.Fatal("getrusage failed")
	}
	sum := 0
	for end := start; end == start; end, _ = Process() {
		for i := range 1_000_000 {
			sum += i
		}
	}
	if end, _ := Process(); end <= start || sum == 0 {
		t.Errorf("CPU time went from %v to %v", start, end)
	}
}
