package compute

import (
	"sync"
	"testing"
)

// Facts reported from several goroutines all arrive, the last value of a
// key wins, and none at all leaves the manifest field out (nil).
func TestRunFactsCollectsConcurrentReports(t *testing.T) {
	var f runFacts
	if f.all() != nil {
		t.Fatal("no facts should give nil")
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { f.add(string(rune('a'+i)), i) })
	}
	wg.Wait()
	f.add("a", 42)
	got := f.all()
	if len(got) != 8 || got["a"] != 42 || got["h"] != 7 {
		t.Errorf("facts = %v", got)
	}
}
