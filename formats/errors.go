package formats

import (
	"fmt"
	"strconv"
)

// ParseError is a problem in a text format (DIMACS, SNAP). Its text is
// "formats: FILE:LINE: MSG", the form editors and grep understand; LINE is
// left out for problems that belong to the whole file, such as a missing
// header.
type ParseError struct {
	// File is the name the caller gave for the input.
	File string
	// Line is the 1-based line number, or 0 for a whole-file problem.
	Line int64
	// Msg says what is wrong.
	Msg string
}

// Error implements error.
func (e *ParseError) Error() string {
	if e.Line > 0 {
		return "formats: " + e.File + ":" + strconv.FormatInt(e.Line, 10) + ": " + e.Msg
	}
	return "formats: " + e.File + ": " + e.Msg
}

// BinaryError is a problem in a binary format (the n/m/triple graph format,
// the distance matrix). Its text is "formats: FILE: offset OFF: MSG", OFF
// being the byte offset where the problem starts; MSG names the triple or
// matrix entry when there is one.
type BinaryError struct {
	// File is the name the caller gave for the input.
	File string
	// Offset is the byte offset of the problem from the start of the input.
	Offset int64
	// Msg says what is wrong.
	Msg string
}

// Error implements error.
func (e *BinaryError) Error() string {
	return "formats: " + e.File + ": offset " + strconv.FormatInt(e.Offset, 10) + ": " + e.Msg
}

func lineErr(file string, line int64, format string, args ...any) error {
	return &ParseError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func binErr(file string, offset int64, format string, args ...any) error {
	return &BinaryError{File: file, Offset: offset, Msg: fmt.Sprintf(format, args...)}
}

// quote renders an input token for an error message, cut short so that a
// hostile line cannot produce a huge message.
func quote(tok []byte) string {
	const limit = 40
	if len(tok) > limit {
		return strconv.Quote(string(tok[:limit])) + "..."
	}
	return strconv.Quote(string(tok))
}
