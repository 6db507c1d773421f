package formats

import (
	"bytes"
	"errors"
	"io"
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

// openText is the common start of every text reader: it decompresses r when
// it is gzip and bounds preallocation by the input's size (see
// preallocLimit), minLine being the length of the shortest data line.
func openText(r io.Reader, name string, minLine int64) (in io.Reader, limit int64, err error) {
	in, err = openMaybeGzip(r)
	if err != nil {
		return nil, 0, &ParseError{File: name, Msg: err.Error()}
	}
	return in, preallocLimit(r, in, minLine), nil
}

// scanLines is the reading loop of the text formats: it hands parse the
// text of c one run of whole lines at a time, until the input ends. *line
// is the number of lines parse has consumed, which places a read error.
func scanLines(c *lineChunks, name string, line *int64, parse func(chunk []byte) error) error {
	for {
		b, err := c.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return lineErr(name, *line+1, "%v", err)
		}
		if err := parse(b); err != nil {
			return err
		}
	}
}

// eachLine calls fn on every line of chunk (whole lines, each ending in
// '\n'), trimmed by trimLine, counting them in *line first so fn can name
// the line. It stops at fn's first error.
func eachLine(chunk []byte, line *int64, fn func(line []byte) error) error {
	for i := 0; i < len(chunk); {
		end := i + bytes.IndexByte(chunk[i:], '\n')
		*line++
		if err := fn(trimLine(chunk[i:end])); err != nil {
			return err
		}
		i = end + 1
	}
	return nil
}

// lineChunks reads text in large blocks and hands out runs of whole lines,
// so parsers can scan bytes in place with no per-line call or allocation.
type lineChunks struct {
	r   io.Reader
	buf []byte
	// tail is buf[tailStart:tailEnd]: the unfinished line after the last
	// chunk handed out, moved to the next buffer on the next call.
	tailStart, tailEnd int
	eof                bool
	err                error
	// spare, when set, supplies a buffer of at least the given size for
	// each chunk, so chunks handed out earlier stay valid while other
	// goroutines parse them. Unset, one buffer is reused and a chunk is
	// valid until the next call.
	spare func(size int) []byte
}

func newLineChunks(r io.Reader, size int) *lineChunks {
	return &lineChunks{r: r, buf: make([]byte, size)}
}

// next returns the next run of complete lines, every one ending in '\n' (a
// last line without one is given one). At the end of the input it returns
// io.EOF; a read error is returned as is, after the lines before it.
func (c *lineChunks) next() ([]byte, error) {
	if c.spare != nil {
		// The old buffer's tail is never part of a chunk handed out, so
		// reading it here races with no parser.
		fresh := c.spare(len(c.buf))
		c.tailEnd = copy(fresh, c.buf[c.tailStart:c.tailEnd])
		c.buf, c.tailStart = fresh, 0
	}
	keep := copy(c.buf, c.buf[c.tailStart:c.tailEnd])
	c.tailStart, c.tailEnd = 0, 0
	for {
		if c.err != nil {
			return nil, c.err
		}
		if c.eof {
			return c.last(keep)
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

// last hands out the keep bytes left at the end of the input, given the
// final newline they lack, or io.EOF when there are none.
func (c *lineChunks) last(keep int) ([]byte, error) {
	if keep == 0 {
		return nil, io.EOF
	}
	if keep == len(c.buf) {
		c.buf = append(c.buf, '\n')
	} else {
		c.buf[keep] = '\n'
	}
	c.tailStart, c.tailEnd = 0, 0
	return c.buf[:keep+1], nil
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
