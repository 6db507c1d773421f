package formats

import (
	"bytes"
	"errors"
	"io"
	"math"
)

// chunkSize is how much text is read at once: large enough that Read calls
// and the per-chunk bookkeeping vanish from profiles, small enough to stay in
// the CPU's L2 cache while the chunk is parsed.
const chunkSize = 256 << 10

// maxLineLen bounds one text line. No valid line of the supported formats is
// anywhere near it; the bound keeps a newline-free input from growing the
// buffer without limit.
const maxLineLen = 64 << 20

// errLineTooLong is returned by lineChunks.next for a line over maxLineLen.
var errLineTooLong = errors.New("line longer than 64 MiB")

// lineChunks reads text in large blocks and hands out runs of whole lines,
// so parsers can scan bytes in place with no per-line call or allocation.
type lineChunks struct {
	r   io.Reader
	buf []byte
	// tail is buf[tailStart:tailEnd]: the unfinished line after the last
	// chunk handed out, moved to the front on the next call.
	tailStart, tailEnd int
	eof                bool
	err                error
}

func newLineChunks(r io.Reader) *lineChunks {
	return &lineChunks{r: r, buf: make([]byte, chunkSize)}
}

// next returns the next run of complete lines, every one ending in '\n' (a
// last line without one is given one). The slice is valid until the next
// call. At the end of the input it returns io.EOF; a read error is returned
// as is.
func (c *lineChunks) next() ([]byte, error) {
	keep := copy(c.buf, c.buf[c.tailStart:c.tailEnd])
	c.tailStart, c.tailEnd = 0, 0
	for {
		if c.err != nil {
			return nil, c.err
		}
		if c.eof {
			if keep == 0 {
				return nil, io.EOF
			}
			if keep == len(c.buf) {
				c.buf = append(c.buf, '\n')
			} else {
				c.buf[keep] = '\n'
			}
			c.tailStart, c.tailEnd = 0, 0
			out := c.buf[:keep+1]
			keep = 0
			return out, nil
		}
		if keep == len(c.buf) {
			if len(c.buf) >= maxLineLen {
				return nil, errLineTooLong
			}
			grown := make([]byte, 2*len(c.buf))
			copy(grown, c.buf[:keep])
			c.buf = grown
		}
		filled := c.fill(keep)
		last := bytes.LastIndexByte(c.buf[keep:filled], '\n')
		if last < 0 {
			keep = filled
			continue
		}
		end := keep + last + 1
		c.tailStart, c.tailEnd = end, filled
		return c.buf[:end], nil
	}
}

// fill reads into c.buf[from:] until it is full, the input ends (c.eof) or
// fails (c.err, reported once the lines before it are parsed). It returns
// the end of the data in c.buf. Unlike io.ReadFull it tells a clean end of
// input from a reader's own io.ErrUnexpectedEOF, which a truncated gzip
// stream returns.
func (c *lineChunks) fill(from int) int {
	idle := 0
	for from < len(c.buf) {
		n, err := c.r.Read(c.buf[from:])
		from += n
		switch {
		case err == io.EOF:
			c.eof = true
			return from
		case err != nil:
			c.err = err
			return from
		case n == 0:
			if idle++; idle == 100 {
				c.err = io.ErrNoProgress
				return from
			}
		default:
			idle = 0
		}
	}
	return from
}

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
