package formats

import (
	"bytes"
	"io"
)

// ReadPairsCSV streams a pair list in CSV: a header line naming the
// columns, among them source and target (other columns are ignored), then
// one pair per line, integers separated by commas, optionally quoted
// header names, spaces around fields and CRLF line ends accepted; blank
// lines are skipped; gzip is told from the bytes. fn gets every pair in
// file order with its 1-based line number, the header being line 1. Errors
// are ParseErrors naming name and the line. O(1) memory beyond one chunk
// of text.
func ReadPairsCSV(r io.Reader, name string, fn func(line, source, target int64) error) error {
	in, _, err := openText(r, name, 4)
	if err != nil {
		return err
	}
	c := newLineChunks(in, chunkSize)
	var line int64
	si, ti := -1, -1
	var fields [][]byte
	return scanLines(c, name, &line, func(chunk []byte) error {
		return eachLine(chunk, &line, func(text []byte) error {
			if len(text) == 0 {
				return nil
			}
			fields = splitCSV(text, fields[:0])
			if si < 0 {
				return pairHeader(name, line, fields, &si, &ti)
			}
			if len(fields) <= max(si, ti) {
				return lineErr(name, line, "%d fields, want the %d of the header", len(fields), max(si, ti)+1)
			}
			s, st := parseInt(bytes.TrimSpace(fields[si]))
			if st != intOK {
				return lineErr(name, line, "source %s is not an integer", quote(fields[si]))
			}
			t, st := parseInt(bytes.TrimSpace(fields[ti]))
			if st != intOK {
				return lineErr(name, line, "target %s is not an integer", quote(fields[ti]))
			}
			return fn(line, s, t)
		})
	})
}

// pairHeader finds the source and target columns in the header fields.
func pairHeader(name string, line int64, fields [][]byte, si, ti *int) error {
	for i, f := range fields {
		switch string(bytes.Trim(bytes.TrimSpace(f), `"`)) {
		case "source":
			*si = i
		case "target":
			*ti = i
		}
	}
	if *si < 0 || *ti < 0 {
		return lineErr(name, line, "the header must name the columns source and target")
	}
	return nil
}

// splitCSV appends the comma-separated fields of line to out.
func splitCSV(line []byte, out [][]byte) [][]byte {
	for {
		i := bytes.IndexByte(line, ',')
		if i < 0 {
			return append(out, line)
		}
		out = append(out, line[:i])
		line = line[i+1:]
	}
}
