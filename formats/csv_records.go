package formats

import (
	"bytes"
	"io"
)

// ScanCSV streams a CSV table with a header line under the rules of
// ReadPairsCSV (RFC 4180 quoting on one line, fields trimmed of spaces and
// tabs, a UTF-8 byte order mark before the header, CRLF line ends, blank
// lines skipped, gzip told from the bytes, every line as wide as the
// header) for readers of tables other than pair lists, which pick their
// columns by name. header gets the header's fields, then row every data
// line's fields, in file order, each with its 1-based line number; the
// fields are valid only during the call. Their errors come back unwrapped
// (make them a ParseError naming name and the line); ScanCSV's own are
// ParseErrors. O(1) memory beyond one chunk of text.
func ScanCSV(r io.Reader, name string, header, row func(line int64, fields [][]byte) error) error {
	in, _, err := openText(r, name, 1)
	if err != nil {
		return err
	}
	c := newLineChunks(in, chunkSize)
	var line int64
	width := -1
	var fields [][]byte
	err = scanLines(c, name, &line, func(chunk []byte) error {
		return eachLine(chunk, &line, func(text []byte) error {
			if width < 0 {
				text = trimLine(bytes.TrimPrefix(text, utf8BOM))
			}
			if len(text) == 0 {
				return nil
			}
			var err error
			if fields, err = splitCSV(text, fields[:0]); err != nil {
				return lineErr(name, line, "%v", err)
			}
			if width < 0 {
				width = len(fields)
				return header(line, fields)
			}
			if len(fields) != width {
				return lineErr(name, line, "%d fields, the header has %d", len(fields), width)
			}
			return row(line, fields)
		})
	})
	if err == nil && width < 0 {
		return &ParseError{File: name, Msg: "no header line (the file is empty)"}
	}
	return err
}
