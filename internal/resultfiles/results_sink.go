package resultfiles

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
)

// ResultSink writes the blocks of a run into a distances table: part files
// part-00000.parquet, part-00001.parquet, ... (.arrow for Arrow IPC) in a
// folder, encoded by several goroutines at once, one part file each. Blocks
// arrive through Put in any order and from any goroutine; each is released
// as soon as every part that reads it has copied its rows, so memory stays
// bounded by the producer's pool plus one row group per worker, however
// large the result.
//
// Part files and row groups are cut at fixed counts (see ResultShape), so
// the bytes of the files depend only on the shape, the rows and the
// options, never on the worker count or on timing.
//
// The files are written straight into the folder, which the caller creates
// inside its uncommitted output and commits (syncing each file once) after
// Close succeeds. After a failure the caller drops the folder.
type ResultSink struct {
	cfg   tables.Config
	dir   string
	shape ResultShape
	// schema is the parts' schema; cells that of the gathered cells,
	// before the input's ids are appended (the same without them).
	schema, cells *arrow.Schema
	part          partition

	store    *blockStore
	next     atomic.Int64 // the next part a worker takes
	wg       sync.WaitGroup
	files    []tables.FileInfo // by part index
	progress func(rows, bytes int64)

	rows, bytes atomic.Int64
	closeOnce   sync.Once
	closeErr    error
}

// NewResultSink creates dir (its parent must exist) and starts the part
// writers. meta becomes the schema metadata of every part. progress, when
// not nil, is called from the writers with the rows and file bytes
// finished so far.
func NewResultSink(dir string, shape ResultShape, meta map[string]string, progress func(rows, bytes int64), opts ...tables.Option) (*ResultSink, error) {
	cfg, err := tables.NewConfig(opts)
	if err != nil {
		return nil, err
	}
	if err := tables.CheckMeta(meta); err != nil {
		return nil, err
	}
	if err := shape.check(); err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	s := &ResultSink{
		cfg:      cfg,
		dir:      dir,
		shape:    shape,
		schema:   resultSchema(&shape, meta),
		cells:    cellSchema(&shape, meta),
		part:     newPartition(&shape, cfg.PartRows, cfg.BatchRows),
		store:    newBlockStore(),
		progress: progress,
	}
	s.files = make([]tables.FileInfo, s.part.parts())
	for range min(cfg.Concurrency, len(s.files)) {
		s.wg.Go(s.work)
	}
	return s, nil
}

// cellSchema is the schema of the shape's layout without the input's ids.
func cellSchema(s *ResultShape, meta map[string]string) *arrow.Schema {
	if s.Layout == Wide {
		return WideResultSchema(s.Wants(results.Parent), meta, s.metrics()...)
	}
	return ResultSchema(s.Wants(results.Parent), meta, s.metrics()...)
}

// resultSchema is the schema of the shape's layout, with the input's ids
// last when the shape asks for them.
func resultSchema(s *ResultShape, meta map[string]string) *arrow.Schema {
	schema := cellSchema(s, meta)
	if !s.WithOriginal {
		return schema
	}
	extra := []arrow.Field{sourceOriginalColumn, vertexOriginalColumn}
	if s.Layout == Wide {
		extra = extra[:1]
	}
	md := schema.Metadata()
	return arrow.NewSchema(append(schema.Fields(), extra...), &md)
}

// Schema returns the schema of the parts.
func (s *ResultSink) Schema() *arrow.Schema { return s.schema }

// Put takes a block over; it is a results.Sink. It never waits for other
// blocks. The block is released by the sink, also when Put fails.
func (s *ResultSink) Put(rows *results.Rows) error {
	if err := s.shape.checkBlock(rows); err != nil {
		rows.Release()
		s.store.fail(err)
		return err
	}
	readers := s.readers(rows)
	if readers == 0 { // no targets: nothing to write from it
		rows.Release()
		return nil
	}
	return s.store.put(rows, readers)
}

// readers is the number of parts that read rows.
func (s *ResultSink) readers(rows *results.Rows) int {
	lo, hi := int64(rows.First), int64(rows.First+rows.Len())
	if s.shape.Layout == Long {
		lo, hi = s.part.rowStart(int(lo)), s.part.rowStart(int(hi))
	}
	if hi == lo { // no targets: no part reads the block
		return 0
	}
	return int((hi-1)/s.part.partUnits - lo/s.part.partUnits + 1)
}

// work writes parts until none is left or the sink fails.
func (s *ResultSink) work() {
	w := newPartWriter(s)
	defer w.release()
	for s.store.failure() == nil {
		i := int(s.next.Add(1) - 1)
		if i >= len(s.files) {
			return
		}
		info, err := w.write(i)
		if err != nil {
			s.store.fail(err)
			return
		}
		s.files[i] = info
		rows, bytes := s.rows.Add(info.Rows), s.bytes.Add(info.Bytes)
		if s.progress != nil {
			s.progress(rows, bytes)
		}
	}
}

// Close waits for every part to be written, once every block has been put,
// and returns the first error. Call it after the backend's Run returned
// without error; Abort otherwise.
func (s *ResultSink) Close() error {
	s.closeOnce.Do(func() {
		s.store.close()
		s.wg.Wait()
		s.store.releaseLeft()
		s.closeErr = s.store.failure()
	})
	return s.closeErr
}

// Abort stops the writers, releases every block still held and returns
// once the writers have ended. The files already written stay in the
// folder, which the caller drops with its uncommitted output. It is a no-op
// after Close.
func (s *ResultSink) Abort() {
	s.store.fail(errors.New("tables: result aborted"))
	s.Close()
}

// Files returns the part files, in order, with their rows, sizes and
// checksums (paths inside the sink's folder); valid after Close succeeded.
func (s *ResultSink) Files() []tables.FileInfo {
	files := append([]tables.FileInfo(nil), s.files...)
	for i := range files {
		files[i].Path = filepath.Join(s.dir, partFileName(i, s.cfg.Format))
	}
	return files
}

// Rows returns the number of rows written so far.
func (s *ResultSink) Rows() int64 { return s.rows.Load() }

func partFileName(i int, f tables.Format) string { return fmt.Sprintf("part-%05d%s", i, f.Ext()) }
