package runlog

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// progressLines runs a Progress on a fake clock and returns its log lines,
// decoded.
type progressLines struct {
	buf   bytes.Buffer
	clock fakeClock
}

func (pl *progressLines) start(total int64) *Progress {
	pl.clock.t = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return newProgress(pl.clock.now, slog.New(slog.NewJSONHandler(&pl.buf, nil)), false, "all pairs", "pivots", total)
}

func (pl *progressLines) lines(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(pl.buf.String()), "\n") {
		if line == "" {
			continue
		}
		m := map[string]any{}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// TestProgressEstimateFollowsTheRecentPace: a stage that waits a minute
// for its first unit, runs fast for 30 s and then slowly estimates the
// time left from its recent pace, so that the estimate stops moving once
// the pace does (a rate since the start keeps it far too low for the
// whole run and climbing).
func TestProgressEstimateFollowsTheRecentPace(t *testing.T) {
	var pl progressLines
	p := pl.start(1000)
	pl.clock.advance(time.Minute)
	for range 30 { // 10 units a second
		pl.clock.advance(time.Second)
		p.Add(10)
	}
	for range 200 { // then 2 units a second
		pl.clock.advance(time.Second)
		p.Add(2)
	}
	var checked int
	for _, line := range pl.lines(t) {
		elapsed, done := line["elapsed_s"].(float64), line["done"].(float64)
		if elapsed < 60+30+rateWindow.Seconds()+1 {
			continue // the window still holds some of the fast part
		}
		eta, ok := line["eta_s"].(float64)
		want := (1000 - done) / 2
		if !ok || math.Abs(eta-want) > 0.05*want+1 {
			t.Errorf("at %.0f s, %.0f done: eta %v s, want %.0f s (2 units a second)", elapsed, done, line["eta_s"], want)
		}
		if rate := line["per_s"].(float64); math.Abs(rate-2) > 0.1 {
			t.Errorf("at %.0f s: %v units a second, want 2", elapsed, rate)
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("%d lines checked, want at least 10:\n%s", checked, &pl.buf)
	}
}

// TestProgressFinishLogsTheTrueLastLine: the last units arrive between
// two rate-limited reports, so Finish logs the final count, 100 percent,
// no time left and the overall rate from the first unit.
func TestProgressFinishLogsTheTrueLastLine(t *testing.T) {
	var pl progressLines
	p := pl.start(0)
	pl.clock.advance(3 * time.Second) // before the first pivot
	for k := int64(1); k <= 100; k++ {
		pl.clock.advance(time.Second)
		p.Report(k, 100)
	}
	pl.clock.advance(time.Minute) // the writers' tail: not the stage's time
	p.Finish()
	lines := pl.lines(t)
	if len(lines) < 2 {
		t.Fatalf("%d lines, want the reports and a last one:\n%s", len(lines), &pl.buf)
	}
	before, last := lines[len(lines)-2], lines[len(lines)-1]
	if before["done"].(float64) == 100 {
		t.Fatalf("the reports already logged the end; the test shows nothing:\n%s", &pl.buf)
	}
	want := map[string]any{"msg": "progress", "done": 100.0, "total": 100.0, "percent": 100.0, "eta_s": 0.0,
		"per_s": 1.0, "elapsed_s": 103.0, "final": true}
	for k, v := range want {
		if last[k] != v {
			t.Errorf("last line %s = %v, want %v:\n%s", k, last[k], v, &pl.buf)
		}
	}
}

// TestProgressOfAShortStageStaysQuiet: a stage that never reached a report
// logs nothing, Finish included.
func TestProgressOfAShortStageStaysQuiet(t *testing.T) {
	var pl progressLines
	p := pl.start(10)
	pl.clock.advance(time.Second)
	p.Add(10)
	p.Finish()
	if pl.buf.Len() != 0 {
		t.Errorf("logged:\n%s", &pl.buf)
	}
}

// TestProgressRatesCountFromTheFirstUnit: a stage whose units start late
// (the rows of an all-pairs result) reports its rate and time left from
// its first unit, not from its start.
func TestProgressRatesCountFromTheFirstUnit(t *testing.T) {
	var pl progressLines
	p := pl.start(10)
	p.interval = 0 // report on every call
	pl.clock.advance(300 * time.Second)
	p.Add(1)
	pl.clock.advance(time.Second)
	p.Add(4)
	last := pl.lines(t)[1]
	if last["elapsed_s"].(float64) != 301 || last["per_s"].(float64) != 4 || last["eta_s"].(float64) != 1.25 {
		t.Errorf("got %v: want the wait before the first unit left out of the rate (4 a second, 1.25 s left)", last)
	}
}
