package cli

import (
	"fmt"
	"io"
	"log/slog"
)

// messages writes the command's own lines on stderr: warnings, the
// notice of a signal, and the one error line every failure ends with.
// They follow log.format: in text "NAME: error: MESSAGE (exit N)" and
// "NAME: warning: MESSAGE", in json a record as the logger writes one,
// with the command's name and, for the error, the exit code as fields,
// so that a log collector reading JSON lines gets only JSON lines.
type messages struct {
	stderr io.Writer
	name   string
	json   *slog.Logger // nil: text
}

// newMessages returns the messages of command name in format ("text" or
// "json"; anything else is text, since it may be why the run fails).
func newMessages(stderr io.Writer, name, format string) messages {
	m := messages{stderr: stderr, name: name}
	if format == "json" {
		// No level filter: these lines are printed whatever log.quiet
		// says, as in text.
		m.json = slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return m
}

// warn reports a problem that does not stop the run.
func (m messages) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if m.json != nil {
		m.json.Warn(msg, "command", m.name)
		return
	}
	report(m.stderr, "%s: warning: %s\n", m.name, msg)
}

// notice reports what the command is doing about an event, such as a
// signal.
func (m messages) notice(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if m.json != nil {
		m.json.Warn(msg, "command", m.name)
		return
	}
	report(m.stderr, "%s: %s\n", m.name, msg)
}

// fail prints err in the one form every failure takes and returns code.
func (m messages) fail(err error, code int) int {
	if m.json != nil {
		m.json.Error(err.Error(), "command", m.name, "exit", code)
		return code
	}
	report(m.stderr, "%s: error: %v (exit %d)\n", m.name, err, code)
	return code
}

// report writes a message to stderr, deliberately dropping a write error:
// a failed write there has nowhere else to go, and the exit code still
// tells the scheduler what happened.
func report(stderr io.Writer, format string, args ...any) {
	_, _ = fmt.Fprintf(stderr, format, args...)
}
