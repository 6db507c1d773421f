package pipeline

import (
	"io"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestProgressRatesCountFromTheFirstUnit: a stage whose units start late
// (the rows of an all-pairs result) reports its rate and time left from
// its first unit, not from its start.
func TestProgressRatesCountFromTheFirstUnit(t *testing.T) {
	logs := &logBuffer{}
	p := NewProgress(logs.logger(), io.Discard, false, "compute", "sources", 10)
	p.interval = 0 // report on every call
	time.Sleep(300 * time.Millisecond)
	p.Add(5)
	m := regexp.MustCompile(`elapsed_s=([0-9.]+) .*eta_s=([0-9.]+)`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no rate in the log:\n%s", logs)
	}
	elapsed, _ := strconv.ParseFloat(m[1], 64)
	eta, _ := strconv.ParseFloat(m[2], 64)
	if elapsed < 0.3 || eta > 0.1 {
		t.Errorf("elapsed %.2f s, eta %.2f s: want the wait before the first unit left out of the estimate", elapsed, eta)
	}
}
