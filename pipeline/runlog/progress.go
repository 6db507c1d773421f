package runlog

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"
)

// isTerminal reports whether w is a character device (an interactive
// terminal), where a progress bar is welcome.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Progress reports how far a long stage has come: a redrawn bar when
// stderr is a terminal, a structured log line every few seconds otherwise,
// nothing when quiet. Safe for concurrent Add.
//
// Rates and the time left come from the last rateWindow of work, not from
// the start: a stage whose pace changes (an all-pairs run whose first
// pivots are cheap, a reader that waits on a slow disk) would otherwise
// show an estimate that drifts for the whole run. Finish logs a last line
// with the stage's true final count and overall rate.
type Progress struct {
	mu       sync.Mutex
	now      func() time.Time // the clock; tests give a fake one
	log      *slog.Logger
	bar      io.Writer // nil unless drawing a bar
	stage    string
	unit     string
	total    int64
	done     int64
	start    time.Time
	first    sample    // the first units' arrival: overall rates count from it
	lastUnit time.Time // when done last grew
	last     time.Time // the last report
	reported bool      // a line was logged: Finish then logs the last one
	interval time.Duration
	quiet    bool
	// window holds samples no older than rateWindow, and the newest one
	// before it, which anchors the recent rate.
	window []sample
	// rows and bytes are what the writers have finished, when they report
	// it (Written).
	rows, bytes int64
}

// sample is the progress at one moment.
type sample struct {
	at                time.Time
	done, rows, bytes int64
}

const (
	// rateWindow is how much recent work a rate is measured over: long
	// enough to smooth out uneven blocks, short enough to follow a change
	// of pace within a few reports.
	rateWindow = 20 * time.Second
	// sampleEvery bounds the samples kept: about rateWindow/sampleEvery.
	sampleEvery = time.Second
)

// NewProgress starts reporting stage, whose size is total units (0 when
// unknown). Bars go to barOut when it is a terminal.
func NewProgress(log *slog.Logger, barOut io.Writer, quiet bool, stage, unit string, total int64) *Progress {
	p := newProgress(time.Now, log, quiet, stage, unit, total)
	if !quiet && isTerminal(barOut) {
		p.bar = barOut
		p.interval = 200 * time.Millisecond
	}
	return p
}

// newProgress is NewProgress without a bar, on the clock now.
func newProgress(now func() time.Time, log *slog.Logger, quiet bool, stage, unit string, total int64) *Progress {
	start := now()
	return &Progress{now: now, log: log, stage: stage, unit: unit, total: total, start: start, last: start,
		quiet: quiet, interval: 5 * time.Second}
}

// Add records n more units done.
func (p *Progress) Add(n int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.advance(p.done + n)
}

// Report records that done of total units are done, for producers that
// count themselves (backend.Request.Progress): safe from several
// goroutines, it keeps the largest done and rate-limits like Add.
func (p *Progress) Report(done, total int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = total
	p.advance(max(p.done, done))
}

// Written records the rows and file bytes the writers have finished so far;
// reports then show their rates.
func (p *Progress) Written(rows, bytes int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rows, p.bytes = max(p.rows, rows), max(p.bytes, bytes)
}

// Finish ends the report: it clears the bar, or, when progress lines were
// logged, logs a last one with the final count and the overall rate, so
// that the last line a log holds is true (the final units usually arrive
// between two rate-limited reports). The caller logs its own summary.
func (p *Progress) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		fmt.Fprint(p.bar, "\r\033[K")
		return
	}
	if p.quiet || !p.reported {
		return
	}
	end := p.lastUnit
	if end.IsZero() {
		end = p.now()
	}
	attrs := []any{"stage", p.stage, "done", p.done, "unit", p.unit, "elapsed_s", Round2(end.Sub(p.start).Seconds())}
	rate, rows, bytes, ok := p.overallRates(end)
	if p.total > 0 {
		attrs = append(attrs, "total", p.total, "percent", Round2(100*float64(p.done)/float64(p.total)))
	}
	if ok {
		attrs = append(attrs, "per_s", Round2(rate))
	}
	if p.total > 0 {
		attrs = append(attrs, "eta_s", 0)
	}
	if ok && p.rows > 0 {
		attrs = append(attrs, "rows_written", p.rows, "rows_per_s", int64(rows), "mb_per_s", Round2(bytes/1e6))
	}
	p.log.Info("progress", append(attrs, "final", true)...)
}

// advance records done units at the clock's time and reports when due;
// the caller holds p.mu.
func (p *Progress) advance(done int64) {
	now := p.now()
	if done > p.done {
		p.lastUnit = now
	}
	p.done = done
	cur := sample{at: now, done: p.done, rows: p.rows, bytes: p.bytes}
	switch {
	case p.first.at.IsZero() && done > 0:
		// The units counted so far were done before now, over an
		// unknown time (rows of an all-pairs result arrive only once the
		// matrix is done): rates count from here.
		p.first = cur
		p.window = append(p.window, cur)
	case p.first.at.IsZero():
		// Nothing done yet: no rate to measure, but a report is still due.
	case now.Sub(p.window[len(p.window)-1].at) >= sampleEvery:
		p.window = append(p.window, cur)
		// Keep one sample at or before the window's start, as the base.
		drop := 0
		for drop+1 < len(p.window) && now.Sub(p.window[drop+1].at) >= rateWindow {
			drop++
		}
		p.window = append(p.window[:0], p.window[drop:]...)
	}
	if p.quiet || now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	p.report(now)
}

// recentRates are the units, rows and bytes per second over the window
// ending at now; ok is false until some units have arrived after the
// first ones.
func (p *Progress) recentRates(now time.Time) (units, rows, bytes float64, ok bool) {
	if len(p.window) == 0 {
		return 0, 0, 0, false
	}
	return rates(p.window[0], sample{at: now, done: p.done, rows: p.rows, bytes: p.bytes})
}

// overallRates are the rates from the first units to end.
func (p *Progress) overallRates(end time.Time) (units, rows, bytes float64, ok bool) {
	if p.first.at.IsZero() {
		return 0, 0, 0, false
	}
	if u, r, b, ok := rates(p.first, sample{at: end, done: p.done, rows: p.rows, bytes: p.bytes}); ok {
		return u, r, b, true
	}
	// Every unit came at once: the stage's whole time is the only
	// measure there is.
	secs := end.Sub(p.start).Seconds()
	if secs <= 0 {
		return 0, 0, 0, false
	}
	return float64(p.done) / secs, float64(p.rows) / secs, float64(p.bytes) / secs, true
}

// rates are the rates between two samples; ok is false when no time or
// no units passed between them.
func rates(from, to sample) (units, rows, bytes float64, ok bool) {
	secs := to.at.Sub(from.at).Seconds()
	if secs <= 0 || to.done <= from.done {
		return 0, 0, 0, false
	}
	return float64(to.done-from.done) / secs, float64(to.rows-from.rows) / secs, float64(to.bytes-from.bytes) / secs, true
}

// report draws the bar or logs a line; the caller holds p.mu.
func (p *Progress) report(now time.Time) {
	elapsed := now.Sub(p.start).Seconds()
	rate, rows, bytes, ok := p.recentRates(now)
	var left float64 // the time left, when ok
	if ok {
		left = float64(p.total-p.done) / rate
	}
	if p.bar != nil {
		var eta, written string
		if ok {
			eta = fmt.Sprintf(" %.1f %s/s", rate, p.unit)
			if p.total > 0 {
				eta += fmt.Sprintf(", %.0fs left", left)
			}
		}
		if ok && p.rows > 0 {
			written = fmt.Sprintf("  %.1fM rows/s %.0f MB/s", rows/1e6, bytes/1e6)
		}
		if p.total > 0 {
			frac := float64(p.done) / float64(p.total)
			width := 30
			filled := min(width, int(frac*float64(width)))
			fmt.Fprintf(p.bar, "\r%s [%-*s] %5.1f%% %.1fs%s%s", p.stage, width, strings.Repeat("=", filled), 100*frac, elapsed, eta, written)
		} else {
			fmt.Fprintf(p.bar, "\r%s %d %s %.1fs%s%s", p.stage, p.done, p.unit, elapsed, eta, written)
		}
		return
	}
	p.reported = true
	attrs := []any{"stage", p.stage, "done", p.done, "unit", p.unit, "elapsed_s", Round2(elapsed)}
	if p.total > 0 {
		attrs = append(attrs, "total", p.total, "percent", Round2(100*float64(p.done)/float64(p.total)))
	}
	if ok {
		attrs = append(attrs, "per_s", Round2(rate))
		if p.total > 0 {
			attrs = append(attrs, "eta_s", Round2(left))
		}
	}
	if ok && p.rows > 0 {
		attrs = append(attrs, "rows_written", p.rows, "rows_per_s", int64(rows), "mb_per_s", Round2(bytes/1e6))
	}
	p.log.Info("progress", attrs...)
}

// Round2 rounds x to two decimals, as log lines show rates and times.
func Round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }

// Round3 rounds x to three decimals, as manifests record seconds.
func Round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }
