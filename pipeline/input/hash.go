package input

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"

	"github.com/pathflow/pathflow/pipeline/runlog"
)

// Read-ahead of hashedReader: 8 blocks of 256 KiB in flight, enough to keep
// the hashing goroutine busy while the parser works on earlier blocks, and
// small enough to stay in cache between the two.
const (
	hashBlockSize = 256 << 10
	hashBlocks    = 8
)

// hashedReader reads an input file ahead on a goroutine of its own that
// also computes the file's SHA-256, so the hash (a third of the work of a
// fast parse) runs beside the parse instead of in it. The parser reads the
// same blocks through Read. Len reports the bytes not yet read, which lets
// the parsers size their arrays.
type hashedReader struct {
	blocks chan []byte // read and hashed, in file order; closed at the end
	free   chan []byte // blocks the parser is done with
	stop   chan struct{}
	done   chan struct{}
	// err and sum are set by the reading goroutine before it closes blocks.
	err error
	sum string

	cur       []byte // the unread rest of the current block
	held      []byte // the current block, whole
	progress  *runlog.Progress
	remaining int64
}

// newHashedReader starts reading r, of size bytes; Close stops it.
func newHashedReader(r io.Reader, size int64, progress *runlog.Progress) *hashedReader {
	h := &hashedReader{
		blocks:    make(chan []byte, hashBlocks),
		free:      make(chan []byte, hashBlocks),
		stop:      make(chan struct{}),
		done:      make(chan struct{}),
		progress:  progress,
		remaining: size,
	}
	for range hashBlocks {
		h.free <- make([]byte, hashBlockSize)
	}
	go h.readAhead(r)
	return h
}

// readAhead is the reading and hashing goroutine.
func (h *hashedReader) readAhead(r io.Reader) {
	defer close(h.done)
	defer close(h.blocks)
	digest := sha256.New()
	for {
		var buf []byte
		select {
		case buf = <-h.free:
		case <-h.stop:
			return
		}
		n, err := io.ReadFull(r, buf)
		digest.Write(buf[:n])
		if n > 0 {
			select {
			case h.blocks <- buf[:n]:
			case <-h.stop:
				return
			}
		}
		switch {
		case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
			h.sum = hex.EncodeToString(digest.Sum(nil))
			return
		case err != nil:
			h.err = err
			return
		}
	}
}

// Read copies the next bytes of the file into p.
func (h *hashedReader) Read(p []byte) (int, error) {
	if len(h.cur) == 0 {
		if h.held != nil {
			h.free <- h.held
			h.held = nil
		}
		b, ok := <-h.blocks
		if !ok {
			if h.err != nil {
				return 0, h.err
			}
			return 0, io.EOF
		}
		h.cur, h.held = b, b[:cap(b)]
	}
	n := copy(p, h.cur)
	h.cur = h.cur[n:]
	h.progress.Add(int64(n))
	h.remaining -= int64(n)
	return n, nil
}

// Len returns the number of bytes not yet read.
func (h *hashedReader) Len() int { return int(max(h.remaining, 0)) }

// Sum reads whatever the parser left unread (parsers stop at the end of
// their data) and returns the hex SHA-256 of the whole file.
func (h *hashedReader) Sum() (string, error) {
	if _, err := io.Copy(io.Discard, h); err != nil {
		return "", err
	}
	<-h.done
	return h.sum, nil
}

// Close stops the reading goroutine and waits for it, so the file can be
// closed under it.
func (h *hashedReader) Close() {
	select {
	case <-h.stop:
	default:
		close(h.stop)
	}
	<-h.done
}
