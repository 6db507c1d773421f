package formats

import "math"

// isBlank reports whether b is a field separator: space or tab.
func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// trimLine drops the trailing spaces, tabs and carriage returns of a line
// (CRLF files are accepted) and its leading spaces and tabs.
func trimLine(line []byte) []byte {
	end := len(line)
	for end > 0 && (isBlank(line[end-1]) || line[end-1] == '\r') {
		end--
	}
	start := 0
	for start < end && isBlank(line[start]) {
		start++
	}
	return line[start:end]
}

// splitFields splits a trimmed line on runs of spaces and tabs into out,
// without allocating. It returns false when the line has more than cap(out)
// fields.
func splitFields(line []byte, out [][]byte) ([][]byte, bool) {
	out = out[:0]
	i := 0
	for i < len(line) {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		start := i
		for i < len(line) && !isBlank(line[i]) {
			i++
		}
		if len(out) == cap(out) {
			return out, false
		}
		out = append(out, line[start:i])
	}
	return out, true
}

// intStatus says why parseInt refused a token.
type intStatus int

const (
	intOK intStatus = iota
	intSyntax
	intRange
)

// parseInt reads a decimal integer with an optional leading '-': the
// grammar of every integer field in this package. It refuses a '+' sign,
// spaces, and anything outside int64.
func parseInt(tok []byte) (int64, intStatus) {
	neg := false
	if len(tok) > 0 && tok[0] == '-' {
		neg = true
		tok = tok[1:]
	}
	if len(tok) == 0 {
		return 0, intSyntax
	}
	var v uint64
	overflow := false
	for _, c := range tok {
		d := c - '0'
		if d > 9 {
			return 0, intSyntax
		}
		if v > (math.MaxUint64-uint64(d))/10 {
			overflow = true
			continue
		}
		v = v*10 + uint64(d)
	}
	switch {
	case overflow:
		return 0, intRange
	case neg && v <= 1<<63:
		return int64(-v), intOK
	case !neg && v <= math.MaxInt64:
		return int64(v), intOK
	}
	return 0, intRange
}

// parseInt32 is parseInt limited to the int32 range.
func parseInt32(tok []byte) (int32, intStatus) {
	v, st := parseInt(tok)
	if st != intOK {
		return 0, st
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, intRange
	}
	return int32(v), intOK
}
