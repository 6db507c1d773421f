package resultfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"runtime"
	"sync"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/results"
)

// DistanceMatrixWriter is the consumer of an all-pairs run's blocks that
// writes them as the binary distance matrix of ReadDistanceMatrix: n x n
// little-endian int32, row-major, graph.Inf32 for "no path". Blocks arrive
// in any order; it keeps them until their turn (the backend's pool bounds
// how many) and writes rows in order on its own goroutines, so Put never
// waits.
//
// The output runs at disk speed: the rows are converted to the file's
// bytes on every core, into a few reusable chunks of matrixChunkBytes,
// and each chunk goes to the file in one write, then to the SHA-256 of
// the manifest on another core, as the next chunks are converted and
// written.
type DistanceMatrixWriter struct {
	path    string
	n       int
	f       *os.File
	hash    hash.Hash
	workers int

	mu      sync.Mutex
	cond    sync.Cond
	pending map[int]*results.Rows // by First
	closed  bool
	err     error
	done    chan struct{}
	sum     string // the file's SHA-256, once closed

	// free holds the chunks not in use; full carries converted chunks to
	// the output goroutine, in file order.
	free chan []byte
	full chan []byte
}

// matrixChunkBytes is the size of one conversion chunk and file write;
// matrixChunks chunks are in flight at once.
const (
	matrixChunkBytes = 8 << 20
	matrixChunks     = 8
)

// NewDistanceMatrixWriter creates the matrix file of n x n entries at
// path, inside an output folder committed as a whole (the file is named
// *.partial until then), and starts the writer.
func NewDistanceMatrixWriter(path string, n int) (*DistanceMatrixWriter, error) {
	f, err := atomicfile.CreateIn(path) // *.partial until the output commits
	if err != nil {
		return nil, err
	}
	w := &DistanceMatrixWriter{path: path, n: n, f: f, hash: sha256.New(), workers: runtime.GOMAXPROCS(0),
		pending: map[int]*results.Rows{}, done: make(chan struct{}),
		free: make(chan []byte, matrixChunks), full: make(chan []byte, matrixChunks)}
	w.cond.L = &w.mu
	chunk := min(matrixChunkBytes, max(4*int64(n)*int64(n), 4))
	for range matrixChunks {
		w.free <- make([]byte, chunk)
	}
	output := make(chan struct{})
	go w.output(output)
	go w.loop(output)
	return w, nil
}

// Put takes a block over; it never waits.
func (w *DistanceMatrixWriter) Put(rows *results.Rows) error {
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

// loop converts blocks in row order until every row is written or it
// fails, then waits for the output goroutine.
func (w *DistanceMatrixWriter) loop(output <-chan struct{}) {
	defer close(w.done)
	defer func() { <-output }()
	defer close(w.full)
	for next := 0; next < w.n; {
		w.mu.Lock()
		for w.pending[next] == nil && !w.closed && w.err == nil {
			w.cond.Wait()
		}
		rows, err := w.pending[next], w.err
		delete(w.pending, next)
		if rows == nil && err == nil {
			err = fmt.Errorf("formats: no block for row %d of the distance matrix", next)
		}
		w.mu.Unlock()
		if err != nil {
			w.fail(err)
			return
		}
		err = w.convertRows(rows)
		next += rows.Len()
		rows.Release()
		if err != nil {
			w.fail(err)
			return
		}
	}
}

// convertRows converts a block into chunks, each on every core, and hands
// them to the output goroutine.
func (w *DistanceMatrixWriter) convertRows(rows *results.Rows) error {
	total := rows.Len() * w.n
	for lo := 0; lo < total; {
		buf := <-w.free
		hi := min(total, lo+len(buf)/4)
		if err := w.convert(rows, lo, hi, buf[:4*(hi-lo)]); err != nil {
			w.free <- buf
			return err
		}
		w.mu.Lock()
		err := w.err
		w.mu.Unlock()
		if err != nil { // the output failed: stop converting
			w.free <- buf
			return err
		}
		w.full <- buf[:4*(hi-lo)]
		lo = hi
	}
	return nil
}

// convert writes entries lo..hi-1 of the block (row-major) into out as
// little-endian int32, on every core. Inf32 stands for "no path"; every
// other entry lies in [-Inf32, Inf32), the range ReadDistanceMatrix reads.
// A distance outside it is an error naming the first such entry.
func (w *DistanceMatrixWriter) convert(rows *results.Rows, lo, hi int, out []byte) error {
	const minPiece = 64 << 10
	pieces := max(1, min(w.workers, (hi-lo)/minPiece))
	bad := make([]int, pieces)
	parallel.For(pieces, pieces, func(p int) {
		a, b := lo+(hi-lo)*p/pieces, lo+(hi-lo)*(p+1)/pieces
		bad[p] = rows.Distances().PutInt32LE(out[4*(a-lo):4*(b-lo)], a, b, graph.Inf32)
	})
	for _, at := range bad {
		if at >= 0 {
			return fmt.Errorf("formats: %s: distance %d from %d to %d does not fit the int32 distance matrix",
				w.path, rows.Distances().Weight(at), rows.Sources[at/w.n], at%w.n)
		}
	}
	return nil
}

// output writes the converted chunks in order, each in one write, and
// passes them to a hashing goroutine, which returns them to free: the
// writes run ahead of the SHA-256 by up to the chunks in flight, so the
// file goes at the slower of the two rates rather than at the sum of
// their per-chunk maxima. After a failure it keeps taking chunks back
// without writing them, so the converter never waits for a chunk that will
// not come.
func (w *DistanceMatrixWriter) output(finished chan<- struct{}) {
	defer close(finished)
	written := make(chan []byte, matrixChunks)
	hashed := make(chan struct{})
	go func() {
		defer close(hashed)
		for buf := range written {
			w.hash.Write(buf)
			w.free <- buf[:cap(buf)]
		}
	}()
	failed := false
	for buf := range w.full {
		if failed {
			w.free <- buf[:cap(buf)]
			continue
		}
		if _, err := w.f.Write(buf); err != nil {
			w.fail(fmt.Errorf("formats: writing %s: %w", w.path, err))
			failed = true
		} else {
			// The commit syncs the file: what is written starts for the
			// disk now, beside the rows still to come.
			atomicfile.StartWriteback(w.f)
		}
		written <- buf
	}
	close(written)
	<-hashed
}

// fail records the first error and releases every pending block.
func (w *DistanceMatrixWriter) fail(err error) {
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
func (w *DistanceMatrixWriter) Close() error {
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
	w.sum = hex.EncodeToString(w.hash.Sum(nil))
	return nil
}

// Abort stops the writer and releases every block it holds.
func (w *DistanceMatrixWriter) Abort() {
	w.fail(errors.New("formats: distance matrix aborted"))
	<-w.done
	w.f.Close()
}

// File returns the matrix file's path, its rows, size in bytes and
// lowercase hex SHA-256; valid after Close succeeded.
func (w *DistanceMatrixWriter) File() (path string, rows, bytes int64, sha256 string) {
	return w.path, int64(w.n), 4 * int64(w.n) * int64(w.n), w.sum
}
