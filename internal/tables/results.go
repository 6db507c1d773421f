package tables

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/paths"
)

// ResultWriter streams shortest-path trees into a result directory of part
// files (part-00000.parquet, part-00001.parquet, ...; .arrow for Arrow IPC),
// in the long layout of ResultSchema: one row per (source, vertex), trees in
// the order written, vertices in id order. Rows are gathered into record
// batches (row groups) of at most WithBatchRows rows and a new part starts
// every WithPartRows rows, so memory stays bounded however many trees
// arrive. The directory is built under a temporary name and appears, or
// replaces an older one, only on Close.
//
// A ResultWriter is owned by one goroutine. After any error it only accepts
// Abort (Close also aborts and returns the error).
type ResultWriter struct {
	cfg         config
	dir         *atomicfile.Dir
	schema      *arrow.Schema
	withParents bool
	n           int // vertices per tree, set by the first tree

	batch *resultBatch // rows gathered for the next record batch; nil when none
	part  *partFile    // the open part file; nil between parts
	files []FileInfo
	rows  int64
	err   error
	done  bool
}

// partFile is a part being written inside the temporary directory.
type partFile struct {
	name string
	f    *os.File
	tw   *tableWriter
}

// NewResultWriter starts a result directory at dir (created on Close; its
// parent must exist). withParents says whether the trees carry parents,
// which adds the parent column; meta becomes the schema metadata of every
// part.
func NewResultWriter(dir string, withParents bool, meta map[string]string, opts ...Option) (*ResultWriter, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if err := checkMeta(meta); err != nil {
		return nil, err
	}
	tmp, err := atomicfile.CreateDir(dir)
	if err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	return &ResultWriter{
		cfg:         cfg,
		dir:         tmp,
		schema:      ResultSchema(withParents, meta),
		withParents: withParents,
	}, nil
}

// Schema returns the schema of the parts.
func (w *ResultWriter) Schema() *arrow.Schema { return w.schema }

// Rows returns the number of rows written so far.
func (w *ResultWriter) Rows() int64 { return w.rows }

// WriteTree appends the rows of t: for v in 0..len(t.Dist)-1, (t.Source, v,
// t.Dist[v] or null when Unreachable, t.Parent[v] or null when NoParent). A
// tree without parents is an error when the writer was made withParents; a
// tree with parents given to a writer without them has its parents dropped.
// Every tree must have as many vertices as the first. The tree is checked before any row is taken, so a rejected tree leaves
// the writer usable. O(len(t.Dist)).
func (w *ResultWriter) WriteTree(t *paths.Tree) error {
	switch {
	case w.done:
		return errors.New("tables: WriteTree on a closed ResultWriter")
	case w.err != nil:
		return w.err
	}
	if err := w.checkTree(t); err != nil {
		return err
	}
	n := len(t.Dist)
	w.n = n
	for lo := 0; lo < n; {
		if w.batch == nil {
			w.batch = newResultBatch(w.cfg.mem, w.batchCapacity(), w.withParents)
		}
		hi := min(n, lo+w.batch.free())
		w.batch.add(t, lo, hi)
		lo = hi
		if w.batch.free() == 0 {
			if err := w.flush(); err != nil {
				return w.fail(err)
			}
		}
	}
	w.rows += int64(n)
	return nil
}

func (w *ResultWriter) checkTree(t *paths.Tree) error {
	n := len(t.Dist)
	switch {
	case n == 0:
		return errors.New("tables: tree over no vertices")
	case w.n != 0 && n != w.n:
		return fmt.Errorf("tables: tree from %d has %d vertices, earlier trees %d", t.Source, n, w.n)
	case t.Source < 0 || int(t.Source) >= n:
		return fmt.Errorf("tables: tree source %d outside 0..%d", t.Source, n-1)
	case !w.withParents:
		return nil
	case t.Parent == nil:
		return fmt.Errorf("tables: tree from %d has no parents for a result with parents", t.Source)
	case len(t.Parent) != n:
		return fmt.Errorf("tables: tree from %d has %d parents for %d vertices", t.Source, len(t.Parent), n)
	}
	for v, p := range t.Parent {
		if p < paths.NoParent || int(p) >= n {
			return fmt.Errorf("tables: tree from %d gives vertex %d the parent %d", t.Source, v, p)
		}
	}
	return nil
}

// batchCapacity is the size of the next batch: a batch never straddles two
// parts.
func (w *ResultWriter) batchCapacity() int {
	inPart := int64(0)
	if w.part != nil {
		inPart = w.part.tw.rows
	}
	return int(min(int64(w.cfg.batchRows), w.cfg.partRows-inPart))
}

// flush writes the gathered batch to the open part, opening one if needed,
// and closes the part when it is full.
func (w *ResultWriter) flush() error {
	b := w.batch
	w.batch = nil
	if b == nil || b.n == 0 {
		if b != nil {
			b.release()
		}
		return nil
	}
	rec := b.record(w.schema)
	defer rec.Release()
	if w.part == nil {
		if err := w.openPart(); err != nil {
			return err
		}
	}
	if err := w.part.tw.Write(rec); err != nil {
		return fmt.Errorf("%w (writing %s)", err, w.part.name)
	}
	if w.part.tw.rows >= w.cfg.partRows {
		return w.closePart()
	}
	return nil
}

func (w *ResultWriter) openPart() error {
	name := fmt.Sprintf("part-%05d%s", len(w.files), w.cfg.format.Ext())
	f, err := os.Create(filepath.Join(w.dir.Path(), name))
	if err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	tw, err := newTableWriter(f, w.schema, w.cfg)
	if err != nil {
		f.Close()
		return err
	}
	w.part = &partFile{name: name, f: f, tw: tw}
	return nil
}

func (w *ResultWriter) closePart() error {
	p := w.part
	w.part = nil
	info, err := p.tw.Close()
	if cerr := p.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("tables: %w", cerr)
	}
	if err != nil {
		return fmt.Errorf("%w (writing %s)", err, p.name)
	}
	info.Path = filepath.Join(w.dir.Name(), p.name)
	w.files = append(w.files, info)
	return nil
}

// Close writes what is buffered, finishes the last part and moves the
// directory into place, replacing an older one. A writer given no tree
// still writes one part holding the schema and no rows. On failure the
// temporary directory is removed and the error returned.
func (w *ResultWriter) Close() error {
	if w.done {
		return w.err
	}
	if w.err == nil {
		w.err = w.finish()
	}
	if w.err != nil {
		w.Abort()
		return w.err
	}
	w.done = true
	return nil
}

func (w *ResultWriter) finish() error {
	if err := w.flush(); err != nil {
		return err
	}
	if w.part == nil && len(w.files) == 0 {
		if err := w.openPart(); err != nil {
			return err
		}
	}
	if w.part != nil {
		if err := w.closePart(); err != nil {
			return err
		}
	}
	if err := w.dir.Commit(); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	return nil
}

// Abort drops everything written: the temporary directory is removed and an
// existing directory at the final name is left alone. It is a no-op after a
// successful Close, so it suits a defer.
func (w *ResultWriter) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	if w.err == nil {
		w.err = errors.New("tables: ResultWriter aborted")
	}
	if w.batch != nil {
		w.batch.release()
		w.batch = nil
	}
	if w.part != nil {
		w.part.tw.Close()
		w.part.f.Close()
		w.part = nil
	}
	w.files = nil
	if err := w.dir.Abort(); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	return nil
}

func (w *ResultWriter) fail(err error) error {
	w.err = err
	return err
}

// Files returns the part files, in order, with their rows, sizes and
// checksums; after a successful Close their paths are final.
func (w *ResultWriter) Files() []FileInfo { return append([]FileInfo(nil), w.files...) }

// resultBatch gathers rows into allocator buffers that become the columns of
// one record batch.
type resultBatch struct {
	n                   int
	src, vtx, parent    []int32
	dist                []int64
	distBits, parBits   []byte
	distNulls, parNulls int
	bufs                resultBuffers
}

type resultBuffers struct {
	src, vtx, dist, distValid, parent, parValid *memory.Buffer
}

func newResultBatch(mem memory.Allocator, capacity int, withParents bool) *resultBatch {
	b := &resultBatch{}
	b.bufs.src, b.src = int32Buffer(mem, capacity)
	b.bufs.vtx, b.vtx = int32Buffer(mem, capacity)
	b.bufs.dist, b.dist = int64Buffer(mem, capacity)
	b.bufs.distValid, b.distBits = bitmapBuffer(mem, capacity)
	if withParents {
		b.bufs.parent, b.parent = int32Buffer(mem, capacity)
		b.bufs.parValid, b.parBits = bitmapBuffer(mem, capacity)
	}
	return b
}

func (b *resultBatch) free() int { return len(b.src) - b.n }

// add copies rows lo..hi-1 of t into the batch.
func (b *resultBatch) add(t *paths.Tree, lo, hi int) {
	at := b.n
	for i := range hi - lo {
		b.src[at+i] = t.Source
		b.vtx[at+i] = int32(lo + i)
	}
	copy(b.dist[at:], t.Dist[lo:hi])
	for i, d := range t.Dist[lo:hi] {
		j := at + i
		if d != paths.Unreachable {
			b.distBits[j>>3] |= 1 << (j & 7)
		} else {
			b.distNulls++
		}
	}
	if b.parent != nil {
		copy(b.parent[at:], t.Parent[lo:hi])
		for i, p := range t.Parent[lo:hi] {
			j := at + i
			if p != paths.NoParent {
				b.parBits[j>>3] |= 1 << (j & 7)
			} else {
				b.parNulls++
			}
		}
	}
	b.n += hi - lo
}

// record turns the batch into a record batch and drops the batch's own
// references to its buffers. A column with no null gets no bitmap.
func (b *resultBatch) record(schema *arrow.Schema) arrow.RecordBatch {
	defer b.release()
	bufs := &b.bufs
	bufs.src.ResizeNoShrink(arrow.Int32Traits.BytesRequired(b.n))
	bufs.vtx.ResizeNoShrink(arrow.Int32Traits.BytesRequired(b.n))
	bufs.dist.ResizeNoShrink(arrow.Int64Traits.BytesRequired(b.n))
	cols := []arrow.Array{
		primitive(int32Type, b.n, nil, 0, bufs.src),
		primitive(int32Type, b.n, nil, 0, bufs.vtx),
		primitive(int64Type, b.n, bitmapOrNil(bufs.distValid, b.n, b.distNulls), b.distNulls, bufs.dist),
	}
	if b.parent != nil {
		bufs.parent.ResizeNoShrink(arrow.Int32Traits.BytesRequired(b.n))
		cols = append(cols, primitive(int32Type, b.n, bitmapOrNil(bufs.parValid, b.n, b.parNulls), b.parNulls, bufs.parent))
	}
	return newRecord(schema, b.n, cols...)
}

// bitmapOrNil trims a validity bitmap to n values, or drops it when no
// value is null.
func bitmapOrNil(bits *memory.Buffer, n, nulls int) *memory.Buffer {
	if nulls == 0 {
		return nil
	}
	bits.ResizeNoShrink(int(bitutil.BytesForBits(int64(n))))
	return bits
}

func (b *resultBatch) release() {
	for _, buf := range []*memory.Buffer{b.bufs.src, b.bufs.vtx, b.bufs.dist, b.bufs.distValid, b.bufs.parent, b.bufs.parValid} {
		if buf != nil {
			buf.Release()
		}
	}
	b.bufs = resultBuffers{}
}
