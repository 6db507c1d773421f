package formats

import (
	"bytes"
	"errors"
	"io"
)

// ReadPairsCSV streams a pair list in CSV: a header line naming the
// columns, among them source and target once each, then one pair per
// line, source and target as decimal integers. Every line has exactly the
// header's number of fields: a short or a long one is an error, as it
// most likely lost or gained a comma. Fields, header names included, may
// be quoted as RFC 4180 says ("a,b" is one field, "" inside quotes is a
// quote); a quote inside an unquoted field, text after a closing quote,
// and a quoted field that runs past the end of its line (a line break
// inside quotes) are errors. Spaces around fields, a UTF-8 byte order mark
// before the header and CRLF line ends are accepted; blank lines are
// skipped; gzip is told from the bytes. fn gets every pair in file order
// with its 1-based line number, the header being line 1, and the line's
// other fields (its columns other than source and target, in header
// order; valid only during the call), which an answer may carry beside
// its pair; ReadPairsCSV returns those columns' names. Errors are
// ParseErrors naming name and the line. O(1) memory beyond one chunk of
// text; a line without a quote is split in place.
//
// Pair lists are read through pairlist.Scan, which also takes Parquet and
// Arrow IPC files; this is its CSV part.
func ReadPairsCSV(r io.Reader, name string, fn func(line, source, target int64, others [][]byte) error) (otherNames []string, err error) {
	in, _, err := openText(r, name, 4)
	if err != nil {
		return nil, err
	}
	c := newLineChunks(in, chunkSize)
	var line int64
	si, ti, width := -1, -1, 0
	var fields, others [][]byte
	err = scanLines(c, name, &line, func(chunk []byte) error {
		return eachLine(chunk, &line, func(text []byte) error {
			if len(text) == 0 {
				return nil
			}
			if si < 0 {
				text = bytes.TrimPrefix(text, utf8BOM)
			}
			var err error
			if fields, err = splitCSV(text, fields[:0]); err != nil {
				return lineErr(name, line, "%v", err)
			}
			if si < 0 {
				width = len(fields)
				if err := pairHeader(name, line, fields, &si, &ti); err != nil {
					return err
				}
				for i, f := range fields {
					if i != si && i != ti {
						otherNames = append(otherNames, string(f))
					}
				}
				return nil
			}
			if len(fields) != width {
				return lineErr(name, line, "%d fields, the header has %d", len(fields), width)
			}
			s, st := parseInt(fields[si])
			if st != intOK {
				return lineErr(name, line, "source %s is not an integer", quote(fields[si]))
			}
			t, st := parseInt(fields[ti])
			if st != intOK {
				return lineErr(name, line, "target %s is not an integer", quote(fields[ti]))
			}
			others = others[:0]
			for i, f := range fields {
				if i != si && i != ti {
					others = append(others, f)
				}
			}
			return fn(line, s, t, others)
		})
	})
	if err != nil {
		return nil, err
	}
	return otherNames, nil
}

// utf8BOM is the byte order mark some spreadsheets write first.
var utf8BOM = []byte("\xef\xbb\xbf")

// pairHeader finds the source and target columns in the header fields.
func pairHeader(name string, line int64, fields [][]byte, si, ti *int) error {
	for i, f := range fields {
		col := si
		switch string(f) {
		case "source":
		case "target":
			col = ti
		default:
			continue
		}
		if *col >= 0 {
			return lineErr(name, line, "the header names the column %s twice (fields %d and %d)", f, *col+1, i+1)
		}
		*col = i
	}
	if *si < 0 || *ti < 0 {
		return lineErr(name, line, "the header must name the columns source and target")
	}
	return nil
}

// Errors of splitCSV.
var (
	errBareQuote  = errors.New(`a quote inside an unquoted field (quote the whole field and write a quote in it as "")`)
	errAfterQuote = errors.New("text after the closing quote of a field")
	errOpenQuote  = errors.New("a quoted field runs past the end of the line (a line break inside quotes is not supported)")
)

// splitCSV appends the comma-separated fields of line to out, each with
// the spaces and tabs around it trimmed and its quotes, if any, removed.
// A line without a quote is split in place; a field with a doubled quote
// is copied.
func splitCSV(line []byte, out [][]byte) ([][]byte, error) {
	if bytes.IndexByte(line, '"') < 0 {
		for {
			i := bytes.IndexByte(line, ',')
			if i < 0 {
				return append(out, trimBlank(line)), nil
			}
			out = append(out, trimBlank(line[:i]))
			line = line[i+1:]
		}
	}
	for {
		field, rest, err := nextCSVField(line)
		if err != nil {
			return out, err
		}
		out = append(out, field)
		if rest == nil {
			return out, nil
		}
		line = rest
	}
}

// nextCSVField reads the field at the start of line and returns it and the
// text after its comma, nil after the last field.
func nextCSVField(line []byte) (field, rest []byte, err error) {
	i := 0
	for i < len(line) && isBlank(line[i]) {
		i++
	}
	if i == len(line) || line[i] != '"' {
		end := bytes.IndexByte(line, ',')
		if end < 0 {
			end = len(line)
		} else {
			rest = line[end+1:]
		}
		field = trimBlank(line[:end])
		if bytes.IndexByte(field, '"') >= 0 {
			return nil, nil, errBareQuote
		}
		return field, rest, nil
	}
	// A quoted field: up to the first quote not doubled.
	start, doubled := i+1, false
	for i = start; ; i++ {
		q := bytes.IndexByte(line[i:], '"')
		if q < 0 {
			return nil, nil, errOpenQuote
		}
		i += q
		if i+1 < len(line) && line[i+1] == '"' {
			doubled = true
			i++
			continue
		}
		break
	}
	field = line[start:i]
	if doubled {
		field = bytes.ReplaceAll(field, []byte(`""`), []byte(`"`))
	}
	field = trimBlank(field)
	for i++; i < len(line) && isBlank(line[i]); i++ {
	}
	switch {
	case i == len(line):
		return field, nil, nil
	case line[i] != ',':
		return nil, nil, errAfterQuote
	}
	return field, line[i+1:], nil
}

// trimBlank trims the spaces and tabs around b.
func trimBlank(b []byte) []byte {
	for len(b) > 0 && isBlank(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isBlank(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
