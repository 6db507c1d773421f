package formats

import (
	"bufio"
	"fmt"
	"io"
)

// DIMACSArcLine returns the 1-based line of r, a DIMACS ".gr" text (plain
// or gzip-compressed), that holds its arc-th arc line (arc 0 is the first
// "a" line), so that a problem found by an arc's position (two files of
// one network whose arcs differ) can be shown where an editor finds it.
// The arc lines are told as ReadDIMACS tells them, by the first character
// after leading blanks; nothing else is checked. O(bytes up to that
// line); an error when r has fewer arcs.
func DIMACSArcLine(r io.Reader, name string, arc int) (int64, error) {
	in, err := openMaybeGzip(r)
	if err != nil {
		return 0, &ParseError{File: name, Msg: err.Error()}
	}
	br := bufio.NewReaderSize(in, chunkSize)
	var line int64
	seen := 0
	for {
		text, err := br.ReadSlice('\n')
		if len(text) > 0 {
			line++
			if t := trimLine(text); len(t) > 0 && t[0] == 'a' {
				if seen == arc {
					return line, nil
				}
				seen++
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			// A line longer than the buffer: read on to its end, counted once.
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			if err != nil && err != io.EOF {
				return 0, &ParseError{File: name, Line: line, Msg: err.Error()}
			}
			if err == io.EOF {
				return 0, &ParseError{File: name, Msg: fmt.Sprintf("%d arc lines, no arc %d", seen, arc+1)}
			}
		case err == io.EOF:
			return 0, &ParseError{File: name, Msg: fmt.Sprintf("%d arc lines, no arc %d", seen, arc+1)}
		case err != nil:
			return 0, &ParseError{File: name, Line: line, Msg: err.Error()}
		}
	}
}
