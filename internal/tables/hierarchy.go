package tables

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/internal/arrowslices"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/hugepages"
)

// A contraction hierarchy can be stored as three Parquet tables beside the
// graph's: its ranks (one row per vertex) and its Up and Down arcs (one
// row per arc, in row order). Analysts read them as any other table;
// compute reads them only from ingest outputs older than the hierarchy's
// mapped file (package chfile), which it maps instead of decoding these.

// Column names of the hierarchy tables.
const (
	ColRank   = "rank"
	ColLow    = "low"
	ColHigh   = "high"
	ColMiddle = "middle"
)

// Schema metadata of the hierarchy tables (besides the caller's).
const (
	// MetaHierarchyChecksum holds the checksum of the graph the hierarchy
	// was built from (graph.EdgeList.Checksum): a reader compares it with
	// the graph's before using the hierarchy.
	MetaHierarchyChecksum = "pathflow.hierarchy.graph_checksum"
	// MetaHierarchyRounds holds hierarchy.Hierarchy.Rounds.
	MetaHierarchyRounds = "pathflow.hierarchy.rounds"
	// MetaHierarchyN holds the vertex count.
	MetaHierarchyN = "pathflow.hierarchy.n"
)

// hierarchyRowGroup bounds the row groups of the hierarchy tables: small
// enough that the arcs of a road graph of a million vertices make dozens of
// (row group, column) chunks for the parallel reader.
const hierarchyRowGroup = 1 << 18

// HierarchyFiles names the three tables of a stored hierarchy.
type HierarchyFiles struct {
	// Ranks has a row per vertex: id (its dense id) and rank (its
	// hierarchy id).
	Ranks string
	// Up has a row per Up arc, low -> high: low (its tail's hierarchy
	// id), high (its head's), weight and middle (the shortcut's middle
	// vertex in hierarchy ids, -1 for an arc of the graph), ordered by
	// low then high.
	Up string
	// Down has a row per Down arc, high -> low, with the Up table's
	// columns and order.
	Down string
}

// HierarchyFilesIn returns the conventional names in dir:
// hierarchy_ranks.parquet, hierarchy_up.parquet and hierarchy_down.parquet.
func HierarchyFilesIn(dir string) HierarchyFiles {
	return HierarchyFiles{
		Ranks: filepath.Join(dir, "hierarchy_ranks.parquet"),
		Up:    filepath.Join(dir, "hierarchy_up.parquet"),
		Down:  filepath.Join(dir, "hierarchy_down.parquet"),
	}
}

// Paths lists the three files, ranks first.
func (f HierarchyFiles) Paths() []string { return []string{f.Ranks, f.Up, f.Down} }

// HierarchyRanksSchema is the schema of the ranks table.
func HierarchyRanksSchema(meta map[string]string) *arrow.Schema {
	return SchemaWith(meta, arrow.Field{Name: ColID, Type: int32Type}, arrow.Field{Name: ColRank, Type: int32Type})
}

// HierarchyArcsSchema is the schema of the Up and Down tables.
func HierarchyArcsSchema(meta map[string]string) *arrow.Schema {
	return SchemaWith(meta,
		arrow.Field{Name: ColLow, Type: int32Type},
		arrow.Field{Name: ColHigh, Type: int32Type},
		arrow.Field{Name: ColWeight, Type: int32Type},
		arrow.Field{Name: ColMiddle, Type: int32Type},
	)
}

// Delta encoding: ids and low columns climb by small steps, heads and
// middles of one row are close.
var (
	hierarchyRanksEncoding = ParquetEncoding{Delta: []string{ColID, ColRank}}
	hierarchyArcsEncoding  = ParquetEncoding{Delta: []string{ColLow, ColHigh, ColWeight, ColMiddle}}
)

// WriteHierarchy writes h as the three Parquet tables of files (whatever
// WithFormat says: the hierarchy tables are always Parquet), with meta and
// the hierarchy's checksum, rounds and vertex count as schema metadata.
// The files are committed only once all three are complete. O(n + arcs).
func WriteHierarchy(files HierarchyFiles, h *hierarchy.Hierarchy, meta map[string]string, opts ...Option) ([]FileInfo, error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return nil, err
	}
	if err := CheckMeta(meta); err != nil {
		return nil, err
	}
	cfg.Format = Parquet
	cfg.BatchRows = min(cfg.BatchRows, hierarchyRowGroup)
	all := make(map[string]string, len(meta)+3)
	for k, v := range meta {
		all[k] = v
	}
	all[MetaHierarchyChecksum] = h.GraphChecksum
	all[MetaHierarchyRounds] = strconv.Itoa(h.Rounds)
	all[MetaHierarchyN] = strconv.Itoa(int(h.N))

	ranksSchema := HierarchyRanksSchema(all)
	ranks, err := writeTemp(files.Ranks, ranksSchema, hierarchyRanksEncoding, cfg, func(emit func(arrow.RecordBatch) error) error {
		return emitRanks(h.Rank, ranksSchema, cfg, emit)
	})
	if err != nil {
		return nil, err
	}
	defer ranks.file.Abort()
	arcsSchema := HierarchyArcsSchema(all)
	up, err := writeTemp(files.Up, arcsSchema, hierarchyArcsEncoding, cfg, func(emit func(arrow.RecordBatch) error) error {
		return emitHierarchyArcs(&h.Up, h.UpMiddle, arcsSchema, cfg, emit)
	})
	if err != nil {
		return nil, err
	}
	defer up.file.Abort()
	down, err := writeTemp(files.Down, arcsSchema, hierarchyArcsEncoding, cfg, func(emit func(arrow.RecordBatch) error) error {
		return emitHierarchyArcs(&h.Down, h.DownMiddle, arcsSchema, cfg, emit)
	})
	if err != nil {
		return nil, err
	}
	defer down.file.Abort()
	for _, p := range []*pendingFile{ranks, up, down} {
		if err := p.file.Commit(); err != nil {
			return nil, fmt.Errorf("tables: %w", err)
		}
	}
	return []FileInfo{ranks.info, up.info, down.info}, nil
}

func emitRanks(rank []int32, schema *arrow.Schema, cfg Config, emit func(arrow.RecordBatch) error) error {
	for lo := 0; lo < len(rank); lo += cfg.BatchRows {
		hi := min(lo+cfg.BatchRows, len(rank))
		idBuf, ids := arrowslices.Int32Buffer(cfg.Mem, hi-lo)
		for i := range ids {
			ids[i] = int32(lo + i)
		}
		idCol := arrowslices.Primitive(int32Type, hi-lo, nil, 0, idBuf)
		idBuf.Release()
		rec := arrowslices.NewRecord(schema, hi-lo, idCol, arrowslices.WrapInt32(rank[lo:hi]))
		err := emit(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

func emitHierarchyArcs(c *graph.CSR, mids []int32, schema *arrow.Schema, cfg Config, emit func(arrow.RecordBatch) error) error {
	m := int(c.Offsets[c.N])
	row := int32(0)
	for lo := 0; lo < m; lo += cfg.BatchRows {
		hi := min(lo+cfg.BatchRows, m)
		lowBuf, lows := arrowslices.Int32Buffer(cfg.Mem, hi-lo)
		for i := range lows {
			for c.Offsets[row+1] <= int64(lo+i) {
				row++
			}
			lows[i] = row
		}
		lowCol := arrowslices.Primitive(int32Type, hi-lo, nil, 0, lowBuf)
		lowBuf.Release()
		rec := arrowslices.NewRecord(schema, hi-lo, lowCol, arrowslices.WrapInt32(c.Targets[lo:hi]), arrowslices.WrapInt32(c.Weights[lo:hi]), arrowslices.WrapInt32(mids[lo:hi]))
		err := emit(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// ReadHierarchyChecksum returns the graph checksum a stored hierarchy
// records, from the footer of its ranks table alone: what a caller needs
// to decide whether to read the rest. O(1) in the graph's size.
func ReadHierarchyChecksum(files HierarchyFiles) (string, error) {
	cfg, err := NewConfig(nil)
	if err != nil {
		return "", err
	}
	pc, err := openParquetColumns(files.Ranks, cfg)
	if err != nil {
		return "", err
	}
	defer pc.Close()
	sum, ok := UserMeta(pc.schema)[MetaHierarchyChecksum]
	if !ok {
		return "", fmt.Errorf("tables: %s: no %s metadata: not a stored hierarchy", files.Ranks, MetaHierarchyChecksum)
	}
	return sum, nil
}

// ReadHierarchy reads the tables WriteHierarchy wrote, each column of
// each table decoded on all cores (WithConcurrency) and the three tables
// at once, checks every invariant of a hierarchy (hierarchy.Assemble) and
// that the three tables agree on the checksum and the vertex count, and
// returns it with the ranks table's schema metadata. O(n + arcs).
func ReadHierarchy(files HierarchyFiles, opts ...Option) (*hierarchy.Hierarchy, map[string]string, error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return nil, nil, err
	}
	var (
		wg     sync.WaitGroup
		rank   []int32
		meta   map[string]string
		sides  [2]hierarchySide
		errs   [3]error
		sideOf = [2]string{files.Up, files.Down}
	)
	wg.Go(func() { rank, meta, errs[0] = readRanks(files.Ranks, cfg) })
	for i := range sides {
		wg.Go(func() { sides[i], errs[i+1] = readHierarchyArcs(sideOf[i], cfg) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	n := len(rank)
	sum := meta[MetaHierarchyChecksum]
	for i, s := range sides {
		if s.meta[MetaHierarchyChecksum] != sum || s.meta[MetaHierarchyN] != strconv.Itoa(n) {
			return nil, nil, fmt.Errorf("tables: %s: graph checksum %q and %s vertices, but %s says %q and %d: tables of two hierarchies",
				sideOf[i], s.meta[MetaHierarchyChecksum], s.meta[MetaHierarchyN], files.Ranks, sum, n)
		}
	}
	rounds, err := strconv.Atoi(meta[MetaHierarchyRounds])
	if err != nil {
		return nil, nil, fmt.Errorf("tables: %s: %s: %w", files.Ranks, MetaHierarchyRounds, err)
	}
	csr := [2]graph.CSR{}
	for i, s := range sides {
		if csr[i], err = s.csr(int32(n)); err != nil {
			return nil, nil, fmt.Errorf("tables: %s: %w", sideOf[i], err)
		}
	}
	h, err := hierarchy.Assemble(rank, csr[0], sides[0].middle, csr[1], sides[1].middle, rounds, sum, cfg.Concurrency)
	if err != nil {
		// The invariants span the three tables: which one is wrong, none
		// of them says.
		return nil, nil, fmt.Errorf("tables: the hierarchy of %s, %s and %s: %w", files.Ranks, files.Up, files.Down, err)
	}
	return h, meta, nil
}

// readRanks reads the ranks table.
func readRanks(path string, cfg Config) (rank []int32, meta map[string]string, err error) {
	pc, err := openParquetColumns(path, cfg)
	if err != nil {
		return nil, nil, err
	}
	defer pc.Close()
	idx, err := ColumnIndices(pc.schema, HierarchyRanksSchema(nil).Fields())
	if err != nil {
		return nil, nil, fmt.Errorf("%w (in %s)", err, path)
	}
	if pc.rows > math.MaxInt32 {
		return nil, nil, fmt.Errorf("tables: %s: %d vertices do not fit int32 ids", path, pc.rows)
	}
	rows := int(pc.rows)
	ids := hugepages.Make[int32](rows)
	rank = hugepages.Make[int32](rows)
	if err := pc.read(cfg.Concurrency, []columnTarget{{field: idx[0], i32: ids}, {field: idx[1], i32: rank}}); err != nil {
		return nil, nil, err
	}
	for i, id := range ids {
		if int(id) != i {
			return nil, nil, fmt.Errorf("tables: %s: row %d has id %d", path, i, id)
		}
	}
	return rank, UserMeta(pc.schema), nil
}

// hierarchySide is one arcs table as read.
type hierarchySide struct {
	low, high, weight, middle []int32
	meta                      map[string]string
}

// readHierarchyArcs reads an Up or Down table.
func readHierarchyArcs(path string, cfg Config) (s hierarchySide, err error) {
	pc, err := openParquetColumns(path, cfg)
	if err != nil {
		return s, err
	}
	defer pc.Close()
	idx, err := ColumnIndices(pc.schema, HierarchyArcsSchema(nil).Fields())
	if err != nil {
		return s, fmt.Errorf("%w (in %s)", err, path)
	}
	if pc.rows > math.MaxInt {
		return s, fmt.Errorf("tables: %s: %d rows", path, pc.rows)
	}
	m := int(pc.rows)
	s = hierarchySide{low: hugepages.Make[int32](m), high: hugepages.Make[int32](m), weight: hugepages.Make[int32](m), middle: hugepages.Make[int32](m), meta: UserMeta(pc.schema)}
	err = pc.read(cfg.Concurrency, []columnTarget{
		{field: idx[0], i32: s.low}, {field: idx[1], i32: s.high}, {field: idx[2], i32: s.weight}, {field: idx[3], i32: s.middle},
	})
	return s, err
}

// csr turns the low column, which must not decrease, into row offsets
// over n rows; the other checks are hierarchy.Assemble's. O(n + arcs).
func (s hierarchySide) csr(n int32) (graph.CSR, error) {
	c := graph.CSR{N: n, Offsets: hugepages.Make[int64](int(n) + 1), Targets: s.high, Weights: s.weight}
	row := int32(0)
	for a, low := range s.low {
		if low < row || low >= n {
			return c, fmt.Errorf("arc row %d has low %d after %d (of %d vertices): not in row order", a, low, row, n)
		}
		for row < low {
			row++
			c.Offsets[row] = int64(a)
		}
	}
	for row < n {
		row++
		c.Offsets[row] = int64(len(s.low))
	}
	return c, nil
}
