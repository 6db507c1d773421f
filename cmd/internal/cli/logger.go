package cli

import (
	"io"
	"log/slog"
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
