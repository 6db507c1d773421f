package pipeline

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"sync"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
)

// matrixWriter writes an all-pairs result as the binary distance matrix of
// formats.ReadDistanceMatrix: n x n little-endian int32, row-major,
// graph.Inf32 for "no path". Blocks arrive in any order; it keeps them
// until their turn (the backend's pool bounds how many) and writes rows in
// order on its own goroutine, so Put never waits.
type matrixWriter struct {
	path string
	n    int
	f    *os.File
	buf  *bufio.Writer
	hash hash.Hash

	mu      sync.Mutex
	cond    sync.Cond
	pending map[int]*backend.Rows // by First
	closed  bool
	err     error
	done    chan struct{}
	info    tables.FileInfo
}

func newMatrixWriter(path string, n int) (*matrixWriter, error) {
	f, err := atomicfile.CreateIn(path) // *.partial until the output commits
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	w := &matrixWriter{path: path, n: n, f: f, hash: h, buf: bufio.NewWriterSize(io.MultiWriter(f, h), 4<<20),
		pending: map[int]*backend.Rows{}, done: make(chan struct{})}
	w.cond.L = &w.mu
	go w.loop()
	return w, nil
}

// Put takes a block over.
func (w *matrixWriter) Put(rows *backend.Rows) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		rows.Release()
		return w.err
	}
	w.pending[rows.First] = rows
	w.cond.Broadcast()
	return nil
}

// loop writes blocks in row order until every row is written or it fails.
func (w *matrixWriter) loop() {
	defer close(w.done)
	row := make([]byte, 4*w.n)
	for next := 0; next < w.n; {
		w.mu.Lock()
		for w.pending[next] == nil && !w.closed && w.err == nil {
			w.cond.Wait()
		}
		rows, err := w.pending[next], w.err
		delete(w.pending, next)
		if rows == nil && err == nil {
			err = fmt.Errorf("pipeline: no block for row %d of the distance matrix", next)
		}
		w.mu.Unlock()
		if err != nil {
			w.fail(err)
			return
		}
		err = w.writeRows(rows, row)
		next += rows.Len()
		rows.Release()
		if err != nil {
			w.fail(err)
			return
		}
	}
	if err := w.buf.Flush(); err != nil {
		w.fail(err)
	}
}

func (w *matrixWriter) writeRows(rows *backend.Rows, row []byte) error {
	for i := range rows.Len() {
		for v := range w.n {
			// Inf32 stands for "no path"; every other entry lies in
			// [-Inf32, Inf32), the range formats.ReadDistanceMatrix reads.
			d := int64(graph.Inf32)
			if dist := rows.Distance(i, v); dist != paths.Unreachable {
				if dist >= int64(graph.Inf32) || dist < -int64(graph.Inf32) {
					return fmt.Errorf("pipeline: %s: distance %d from %d to %d does not fit the int32 distance matrix", w.path, dist, rows.Sources[i], v)
				}
				d = dist
			}
			binary.LittleEndian.PutUint32(row[4*v:], uint32(int32(d)))
		}
		if _, err := w.buf.Write(row); err != nil {
			return fmt.Errorf("pipeline: writing %s: %w", w.path, err)
		}
	}
	return nil
}

// fail records the first error and releases every pending block.
func (w *matrixWriter) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
	for k, rows := range w.pending {
		rows.Release()
		delete(w.pending, k)
	}
	w.cond.Broadcast()
}

// Close waits for the last row and closes the file.
func (w *matrixWriter) Close() error {
	w.mu.Lock()
	w.closed = true
	w.cond.Broadcast()
	w.mu.Unlock()
	<-w.done
	err := w.err
	if cerr := w.f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	w.info = tables.FileInfo{Path: w.path, Rows: int64(w.n), Bytes: 4 * int64(w.n) * int64(w.n), SHA256: hex.EncodeToString(w.hash.Sum(nil))}
	return nil
}

// Abort stops the writer and releases every block it holds.
func (w *matrixWriter) Abort() {
	w.fail(errors.New("pipeline: distance matrix aborted"))
	<-w.done
	w.f.Close()
}

// Files returns the matrix file.
func (w *matrixWriter) Files() []tables.FileInfo { return []tables.FileInfo{w.info} }
