package tables

import (
	"errors"
	"sync"
)

// writeBehindChunkBytes and writeBehindChunks size a writeBehind's
// buffers: chunks of 1 MiB, the size of the buffered writer it replaces,
// four per open table (16 part writers at once hold 64 MiB).
const (
	writeBehindChunkBytes = 1 << 20
	writeBehindChunks     = 4
)

// errWriteBehindClosed is what a write after Close returns.
var errWriteBehindClosed = errors.New("tables: write to a closed table file")

// writeBehind is the buffered stream of a table file whose hashing and
// writing (DigestWriter: SHA-256 and the system call) run on a goroutine
// of their own: the goroutine that encodes the table, which sets the pace
// of a file written by one goroutine, hands over full chunks and goes on
// encoding. 100,000 Delaware routes (225 MB of Parquet) spent 0.17 of
// 3.6 cpu-s hashing (a CPU profile), on the encoder's goroutine before. Writes keep their order:
// one goroutine takes the chunks in turn. The first error of the
// underlying writer is returned by later writes and by Close.
type writeBehind struct {
	dst  *DigestWriter
	cur  []byte        // the chunk being filled
	made int           // chunks made so far, at most writeBehindChunks
	full chan []byte   // chunks to write, in order
	free chan []byte   // chunks written, to fill again
	done chan struct{} // closed once the goroutine has written every chunk

	mu     sync.Mutex
	err    error // the first error of dst.Write
	closed bool
}

// newWriteBehind starts the goroutine that writes to dst.
func newWriteBehind(dst *DigestWriter) *writeBehind {
	w := &writeBehind{dst: dst, full: make(chan []byte, writeBehindChunks), free: make(chan []byte, writeBehindChunks),
		done: make(chan struct{})}
	go w.run()
	return w
}

// run writes the chunks handed over until Close, then closes done.
func (w *writeBehind) run() {
	defer close(w.done)
	for chunk := range w.full {
		if w.failure() == nil {
			if _, err := w.dst.Write(chunk); err != nil {
				w.mu.Lock()
				w.err = err
				w.mu.Unlock()
			}
		}
		w.free <- chunk[:0]
	}
}

// failure is the first error of the underlying writer, or nil.
func (w *writeBehind) failure() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Write copies p into chunks, handing each full one to the goroutine. It
// returns the underlying writer's first error once there has been one.
func (w *writeBehind) Write(p []byte) (int, error) {
	if err := w.failure(); err != nil {
		return 0, err
	}
	if w.closed {
		return 0, errWriteBehindClosed
	}
	n := len(p)
	for len(p) > 0 {
		if w.cur == nil {
			w.cur = w.nextChunk()
		}
		k := min(len(p), cap(w.cur)-len(w.cur))
		w.cur = append(w.cur, p[:k]...)
		p = p[k:]
		if len(w.cur) == cap(w.cur) {
			w.full <- w.cur
			w.cur = nil
		}
	}
	return n, nil
}

// nextChunk returns a written chunk to fill again, or a new one while
// fewer than writeBehindChunks exist; with all of them out it waits for
// the goroutine to free one.
func (w *writeBehind) nextChunk() []byte {
	select {
	case chunk := <-w.free:
		return chunk
	default:
	}
	if w.made < writeBehindChunks {
		w.made++
		return make([]byte, 0, writeBehindChunkBytes)
	}
	return <-w.free
}

// Close hands over what is buffered, waits until everything is written
// and returns the first error. Later calls return it again.
func (w *writeBehind) Close() error {
	if !w.closed {
		w.closed = true
		if len(w.cur) > 0 {
			w.full <- w.cur
			w.cur = nil
		}
		close(w.full)
	}
	<-w.done
	return w.failure()
}
