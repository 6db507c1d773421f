package pipeline

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"
)

// NewLogger returns the structured logger of a command: text or JSON lines
// on w; quiet keeps only warnings and errors.
func NewLogger(w io.Writer, format string, quiet bool) *slog.Logger {
	level := slog.LevelInfo
	if quiet {
		level = slog.LevelWarn
	}
	opts := &slog.HandlerOptions{Level: level}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

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
type Progress struct {
	mu       sync.Mutex
	log      *slog.Logger
	bar      io.Writer // nil unless drawing a bar
	stage    string
	unit     string
	total    int64
	done     int64
	start    time.Time
	first    time.Time // when the first unit was done: rates count from it
	last     time.Time
	interval time.Duration
	quiet    bool
	// rows and bytes are what the writers have finished, when they report
	// it (Written).
	rows, bytes int64
}

// NewProgress starts reporting stage, whose size is total units (0 when
// unknown). Bars go to barOut when it is a terminal.
func NewProgress(log *slog.Logger, barOut io.Writer, quiet bool, stage, unit string, total int64) *Progress {
	p := &Progress{log: log, stage: stage, unit: unit, total: total, start: time.Now(), quiet: quiet, interval: 5 * time.Second}
	if !quiet && isTerminal(barOut) {
		p.bar = barOut
		p.interval = 200 * time.Millisecond
	}
	p.last = p.start
	return p
}

// Add records n more units done.
func (p *Progress) Add(n int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.markFirst(n)
	p.done += n
	p.reportDue()
}

// reportDue reports unless quiet or reported less than an interval ago;
// the caller holds p.mu.
func (p *Progress) reportDue() {
	if p.quiet || time.Since(p.last) < p.interval {
		return
	}
	p.last = time.Now()
	p.report()
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
	p.markFirst(done)
	p.total, p.done = total, max(p.done, done)
	p.reportDue()
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

// Finish clears the bar; the caller logs its own summary line.
func (p *Progress) Finish() {
	if p == nil || p.bar == nil {
		return
	}
	fmt.Fprint(p.bar, "\r\033[K")
}

// markFirst notes when the first units arrive: a stage that waits before
// its first unit (rows of an all-pairs result come only once the matrix is
// done) would otherwise report a rate diluted by the wait; the caller
// holds p.mu.
func (p *Progress) markFirst(n int64) {
	if p.first.IsZero() && n > 0 {
		p.first = time.Now()
	}
}

// active is the time since the first unit arrived, in seconds.
func (p *Progress) active() float64 {
	if p.first.IsZero() {
		return 0
	}
	return time.Since(p.first).Seconds()
}

func (p *Progress) report() {
	elapsed, active := time.Since(p.start).Seconds(), p.active()
	if p.bar != nil {
		if p.total > 0 {
			frac := float64(p.done) / float64(p.total)
			width := 30
			filled := min(width, int(frac*float64(width)))
			fmt.Fprintf(p.bar, "\r%s [%-*s] %5.1f%% %.1fs%s%s", p.stage, width, strings.Repeat("=", filled), 100*frac, elapsed, p.eta(active), p.rates(active))
		} else {
			fmt.Fprintf(p.bar, "\r%s %d %s %.1fs%s", p.stage, p.done, p.unit, elapsed, p.rates(active))
		}
		return
	}
	attrs := []any{"stage", p.stage, "done", p.done, "unit", p.unit, "elapsed_s", round2(elapsed)}
	if p.total > 0 {
		attrs = append(attrs, "total", p.total, "percent", round2(100*float64(p.done)/float64(p.total)))
		if p.done > 0 && active > 0 {
			attrs = append(attrs, "per_s", round2(float64(p.done)/active), "eta_s", round2(active*float64(p.total-p.done)/float64(p.done)))
		}
	}
	if p.rows > 0 && active > 0 {
		attrs = append(attrs, "rows_written", p.rows, "rows_per_s", int64(float64(p.rows)/active),
			"mb_per_s", round2(float64(p.bytes)/1e6/active))
	}
	p.log.Info("progress", attrs...)
}

// eta formats the rate and the estimated time left for the bar, over
// active seconds of work.
func (p *Progress) eta(active float64) string {
	if p.done <= 0 || active <= 0 {
		return ""
	}
	return fmt.Sprintf(" %.1f %s/s, %.0fs left", float64(p.done)/active, p.unit, active*float64(p.total-p.done)/float64(p.done))
}

// rates formats the writers' rates for the bar, over active seconds.
func (p *Progress) rates(active float64) string {
	if p.rows == 0 || active <= 0 {
		return ""
	}
	return fmt.Sprintf("  %.1fM rows/s %.0f MB/s", float64(p.rows)/1e6/active, float64(p.bytes)/1e6/active)
}

func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }
