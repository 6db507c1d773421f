package resultfiles

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/arrowslices"
	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
)

// partWriter is one worker of a ResultSink: it writes whole part files, one
// after another, gathering each row group into buffers it reuses.
type partWriter struct {
	sink *ResultSink
	long *longBatch
	wide *wideBatch
	cur  *storedBlock // the block being read; nil between blocks
}

func newPartWriter(s *ResultSink) *partWriter {
	w := &partWriter{sink: s}
	if s.shape.Layout == Wide {
		w.wide = newWideBatch(s.cfg.Mem, int(s.part.groupUnits), s.shape.targetCount(), s.shape.Wants(results.Parent), s.shape.Wants(results.Metric))
	} else {
		w.long = newLongBatch(s.cfg.Mem, int(s.part.groupUnits), s.shape.Wants(results.Parent), s.shape.Wants(results.Metric))
	}
	return w
}

func (w *partWriter) release() {
	w.sink.store.done(w.cur)
	w.cur = nil
	if w.long != nil {
		w.long.bufs.release()
	}
	if w.wide != nil {
		w.wide.bufs.release()
	}
}

// block returns the stored block holding source index i, waiting for it.
func (w *partWriter) block(i int) (*results.Rows, error) {
	if w.cur != nil {
		if r := w.cur.rows; i >= r.First && i < r.First+r.Len() {
			return r, nil
		}
		w.sink.store.done(w.cur)
		w.cur = nil
	}
	e, err := w.sink.store.acquire(i)
	if err != nil {
		return nil, err
	}
	w.cur = e
	return e.rows, nil
}

// write writes part i and returns its file's rows, size and checksum.
func (w *partWriter) write(i int) (info tables.FileInfo, err error) {
	s := w.sink
	name := partFileName(i, s.cfg.Format)
	// Inside an uncommitted output the part is named *.partial until then.
	f, err := atomicfile.CreateIn(filepath.Join(s.dir, name))
	if err != nil {
		return tables.FileInfo{}, fmt.Errorf("tables: %w", err)
	}
	defer func() {
		if err == nil {
			// The commit syncs the part; its pages start for the disk
			// now, while later parts are written.
			atomicfile.StartWriteback(f)
		}
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("tables: %w", cerr)
		}
		if err != nil {
			err = fmt.Errorf("%w (writing %s)", err, filepath.Join(s.dir, name))
		}
	}()
	enc := resultEncoding
	if s.shape.Layout == Wide {
		enc = wideEncoding
	}
	for _, m := range s.shape.metrics() {
		// A metric follows the distance along neighbouring rows.
		name := m.Name
		if s.shape.Layout == Wide {
			name += ".list.element"
		}
		enc.Delta = append(slices.Clip(enc.Delta), name)
	}
	tw, err := tables.NewTableWriter(f, s.schema, enc, s.cfg)
	if err != nil {
		return tables.FileInfo{}, err
	}
	lo, hi := s.part.part(i)
	for g := lo; g < hi; g += s.part.groupUnits {
		var rec arrow.RecordBatch
		if s.shape.Layout == Wide {
			rec, err = w.gatherWide(g, min(g+s.part.groupUnits, hi))
		} else {
			rec, err = w.gatherLong(g, min(g+s.part.groupUnits, hi))
		}
		if err == nil && s.shape.WithOriginal {
			rec = withOriginalIDs(rec, s.schema, s.shape.Original, s.shape.Layout)
		}
		if err == nil && rec.NumRows() > 0 {
			err = tw.Write(rec)
		}
		if rec != nil {
			rec.Release()
		}
		if err != nil {
			tw.Close()
			return tables.FileInfo{}, err
		}
	}
	// The part is done with its last block: later parts may not need it.
	s.store.done(w.cur)
	w.cur = nil
	return tw.Close()
}

// gatherLong copies cells [lo, hi) into a record batch of the long layout.
func (w *partWriter) gatherLong(lo, hi int64) (arrow.RecordBatch, error) {
	s := w.sink
	b := w.long
	b.reset()
	bulk := !s.shape.Narrowed() && !s.shape.HasCutoff()
	for c := lo; c < hi; {
		i, j := s.part.rowAt(c)
		rows, err := w.block(i)
		if err != nil {
			return nil, err
		}
		end := int(min(int64(s.shape.rowCount(i)), int64(j)+hi-c))
		switch {
		case rows.Sparse():
			b.addSparse(rows, i-rows.First, j, end)
		case bulk:
			b.addRun(rows, i-rows.First, j, end)
		default:
			b.addSelected(rows, i-rows.First, s.shape.RowTargets(i), j, end, s.shape.MaxDistance)
		}
		c += int64(end - j)
	}
	return b.record(s.cells), nil
}

// gatherWide copies the rows of sources [lo, hi) into a record batch of the
// wide layout.
func (w *partWriter) gatherWide(lo, hi int64) (arrow.RecordBatch, error) {
	s := w.sink
	b := w.wide
	b.reset()
	for i := int(lo); i < int(hi); i++ {
		rows, err := w.block(i)
		if err != nil {
			return nil, err
		}
		b.addRow(rows, i-rows.First, s.shape.MaxDistance)
	}
	return b.record(s.cells), nil
}

// resultEncoding: vertices count up, so DELTA_BINARY_PACKED stores them in
// a few bits; distances and parents of neighbouring vertex ids tend to be
// close, so it shrinks them too and leaves the codec little to do; the
// source, constant over whole rows, takes no bits at all, and the tables
// package writes its blocks at once (steadyStep). Kept PLAIN, the source
// went through arrow-go's column writer, 15% of the CPU of Gnutella30's all
// pairs with parents on an H200 host (4.7 of 32.5 cpu-s). Delta-encoded,
// 64 whole ch trees at 24M took 180 user-s against 193 and 3.87 GB of
// files against 4.18, on one H200 host (docs/performance.md).
var resultEncoding = tables.ParquetEncoding{
	Delta: []string{ColSource, ColVertex, ColDistance, ColParent},
}

// wideEncoding is resultEncoding for the list columns of the wide layout.
var wideEncoding = tables.ParquetEncoding{
	Delta: []string{ColSource, ColDistance + ".list.element", ColParent + ".list.element"},
}

// columnBuffers are the allocator buffers behind a batch's columns.
type columnBuffers []*memory.Buffer

func (b *columnBuffers) add(buf *memory.Buffer) *memory.Buffer {
	*b = append(*b, buf)
	return buf
}

func (b columnBuffers) release() {
	for _, buf := range b {
		buf.Release()
	}
}

// cellColumns are the distance and parent cells of a batch, what the long
// and the wide layouts share: values, validity bitmaps, null counts and
// the buffers behind them. The parent fields stay nil without parents.
type cellColumns struct {
	dist                []int64
	par                 []int32
	distBits, parBits   []byte
	distNulls, parNulls int
	distBuf, distValid  *memory.Buffer
	parBuf, parValid    *memory.Buffer
	// met, when the shape holds a metric, is its cells; they share the
	// distance's validity.
	met    []int64
	metBuf *memory.Buffer
}

// alloc makes room for cells cells and adds the buffers to bufs.
func (c *cellColumns) alloc(mem memory.Allocator, bufs *columnBuffers, cells int, withParents, withMetric bool) {
	var buf *memory.Buffer
	buf, c.dist = arrowslices.Int64Buffer(mem, cells)
	c.distBuf = bufs.add(buf)
	buf, c.distBits = arrowslices.BitmapBuffer(mem, cells)
	c.distValid = bufs.add(buf)
	if withParents {
		buf, c.par = arrowslices.Int32Buffer(mem, cells)
		c.parBuf = bufs.add(buf)
		buf, c.parBits = arrowslices.BitmapBuffer(mem, cells)
		c.parValid = bufs.add(buf)
	}
	if withMetric {
		buf, c.met = arrowslices.Int64Buffer(mem, cells)
		c.metBuf = bufs.add(buf)
	}
}

// metArray returns the first n metric cells as an array sharing the
// batch's buffers, null where the distance is.
func (c *cellColumns) metArray(n int) arrow.Array {
	return arrowslices.Primitive(int64Type, n, bitmapView(c.distValid, n, c.distNulls), c.distNulls,
		prefix(c.metBuf, arrow.Int64Traits.BytesRequired(n)))
}

// reset marks the first used cells invalid again and zeroes the null
// counts, ready for the next batch.
func (c *cellColumns) reset(used int) {
	n := int(bitutil.BytesForBits(int64(used)))
	clear(c.distBits[:n])
	if c.parBits != nil {
		clear(c.parBits[:n])
	}
	c.distNulls, c.parNulls = 0, 0
}

// distArray returns the first n distance cells as an array sharing the
// batch's buffers.
func (c *cellColumns) distArray(n int) arrow.Array {
	return arrowslices.Primitive(int64Type, n, bitmapView(c.distValid, n, c.distNulls), c.distNulls,
		prefix(c.distBuf, arrow.Int64Traits.BytesRequired(n)))
}

// parArray returns the first n parent cells as an array sharing the
// batch's buffers.
func (c *cellColumns) parArray(n int) arrow.Array {
	return arrowslices.Primitive(int32Type, n, bitmapView(c.parValid, n, c.parNulls), c.parNulls,
		prefix(c.parBuf, arrow.Int32Traits.BytesRequired(n)))
}

// parentCell writes parent p at j, valid unless it is paths.NoParent, and
// returns 1 for a null.
func parentCell(par []int32, bits []byte, j int, p int32) int {
	par[j] = p
	if p == paths.NoParent {
		return 1
	}
	bitSet(bits, j)
	return 0
}

// fillRun sets every value of dst to v: one store, then copies that
// double what is filled, at the speed of memmove (a row's source column
// is one value over the row's every vertex).
func fillRun(dst []int32, v int32) {
	if len(dst) == 0 {
		return
	}
	dst[0] = v
	for filled := 1; filled < len(dst); filled *= 2 {
		copy(dst[filled:], dst[:filled])
	}
}

// bitSet marks value j valid.
func bitSet(bits []byte, j int) { bits[j>>3] |= 1 << (j & 7) }

// prefix returns a view of the first n bytes of buf, which stays owned by
// buf.
func prefix(buf *memory.Buffer, n int) *memory.Buffer {
	return memory.NewBufferBytes(buf.Bytes()[:n])
}

// bitmapView returns a view of the validity bitmap of n values, or nil when
// no value is null.
func bitmapView(bits *memory.Buffer, n, nulls int) *memory.Buffer {
	if nulls == 0 {
		return nil
	}
	return prefix(bits, int(bitutil.BytesForBits(int64(n))))
}

// longBatch gathers the rows of one long-layout record batch.
type longBatch struct {
	n              int
	src, vtx       []int32
	cellColumns    // one cell per row
	bufs           columnBuffers
	srcBuf, vtxBuf *memory.Buffer
}

func newLongBatch(mem memory.Allocator, capacity int, withParents, withMetric bool) *longBatch {
	b := &longBatch{}
	var buf *memory.Buffer
	buf, b.src = arrowslices.Int32Buffer(mem, capacity)
	b.srcBuf = b.bufs.add(buf)
	buf, b.vtx = arrowslices.Int32Buffer(mem, capacity)
	b.vtxBuf = b.bufs.add(buf)
	b.alloc(mem, &b.bufs, capacity, withParents, withMetric)
	return b
}

func (b *longBatch) reset() {
	b.cellColumns.reset(b.n)
	b.n = 0
}

// addRun appends every vertex v0..v1-1 of row r: the bulk path, one tight
// loop per column.
func (b *longBatch) addRun(rows *results.Rows, r, v0, v1 int) {
	at, count := b.n, v1-v0
	source := rows.Sources[r]
	fillRun(b.src[at:at+count], source)
	vtx := b.vtx[at : at+count]
	for k := range vtx {
		vtx[k] = int32(v0 + k)
	}
	base := r * rows.Width
	b.distNulls += rows.Distances().Fill(b.dist[at:], b.distBits, at, base+v0, base+v1)
	if b.met != nil {
		copy(b.met[at:], rows.Metric64[base+v0:base+v1])
	}
	if b.par != nil {
		copy(b.par[at:], rows.Parent[base+v0:base+v1])
		for k, p := range b.par[at : at+count] {
			if p != paths.NoParent {
				bitSet(b.parBits, at+k)
			} else {
				b.parNulls++
			}
		}
	}
	b.n += count
}

// distCell writes one distance at row j, null unless reached.
func (b *longBatch) distCell(j int, d int64, reached bool) {
	if !reached {
		b.dist[j] = 0
		b.distNulls++
		return
	}
	b.dist[j] = d
	bitSet(b.distBits, j)
}

// addSelected appends the cells of row r at columns j0..j1-1, which hold
// vertices targets[j0:j1] (targets nil: vertices j0..j1-1), dropping those
// beyond maxDistance when it is not results.NoCutoff.
func (b *longBatch) addSelected(rows *results.Rows, r int, targets []int32, j0, j1 int, maxDistance int64) {
	source := rows.Sources[r]
	base, _ := rows.Span(r)
	dist := rows.Distances()
	for j := j0; j < j1; j++ {
		v := int32(j)
		if targets != nil {
			v = targets[j]
		}
		d, reached := dist.At(base + j)
		if maxDistance != results.NoCutoff && (!reached || d > maxDistance) {
			continue
		}
		at := b.n
		b.src[at], b.vtx[at] = source, v
		b.distCell(at, d, reached)
		if b.met != nil {
			b.met[at] = rows.Metric64[base+j]
		}
		if b.par != nil {
			b.parNulls += parentCell(b.par, b.parBits, at, rows.Parent[base+j])
		}
		b.n++
	}
}

// addSparse appends the cells of sparse row r (results.Rows.Vertices, all
// within the cutoff) whose vertices lie in j0..j1-1: the cells addSelected
// keeps of the same row in full. O(log cells + cells added).
func (b *longBatch) addSparse(rows *results.Rows, r int, j0, j1 int) {
	source := rows.Sources[r]
	lo, hi := rows.Span(r)
	vs := rows.Vertices[lo:hi]
	first, _ := slices.BinarySearch(vs, int32(j0))
	dist := rows.Distances()
	for at := lo + first; at < hi && int(rows.Vertices[at]) < j1; at++ {
		k := b.n
		b.src[k], b.vtx[k] = source, rows.Vertices[at]
		d, reached := dist.At(at)
		b.distCell(k, d, reached)
		if b.met != nil {
			b.met[k] = rows.Metric64[at]
		}
		if b.par != nil {
			b.parNulls += parentCell(b.par, b.parBits, k, rows.Parent[at])
		}
		b.n++
	}
}

// record returns the gathered rows as a record batch sharing the batch's
// buffers: release it before the batch is refilled.
func (b *longBatch) record(schema *arrow.Schema) arrow.RecordBatch {
	n := b.n
	cols := []arrow.Array{
		arrowslices.Primitive(int32Type, n, nil, 0, prefix(b.srcBuf, arrow.Int32Traits.BytesRequired(n))),
		arrowslices.Primitive(int32Type, n, nil, 0, prefix(b.vtxBuf, arrow.Int32Traits.BytesRequired(n))),
		b.distArray(n),
	}
	if b.met != nil {
		cols = append(cols, b.metArray(n))
	}
	if b.par != nil {
		cols = append(cols, b.parArray(n))
	}
	return arrowslices.NewRecord(schema, n, cols...)
}

// withOriginalIDs returns rec with the input's ids of its sources (and, in
// the long layout, of its vertices) appended, the columns of schema; it
// releases rec. O(rows).
func withOriginalIDs(rec arrow.RecordBatch, schema *arrow.Schema, vs *graph.Vertices, layout Layout) arrow.RecordBatch {
	defer rec.Release()
	n := int(rec.NumRows())
	cols := append([]arrow.Array(nil), rec.Columns()...)
	for _, c := range cols { // NewRecord takes the references over
		c.Retain()
	}
	ids := []arrow.Array{rec.Column(0)}
	if layout == Long {
		ids = append(ids, rec.Column(1))
	}
	for _, a := range ids {
		dense := a.(*array.Int32).Int32Values()
		orig := make([]int64, n)
		for k, v := range dense {
			orig[k] = vs.Original(v)
		}
		cols = append(cols, arrowslices.WrapInt64(orig))
	}
	return arrowslices.NewRecord(schema, n, cols...)
}
