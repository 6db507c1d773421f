package tables

import (
	"errors"
	"fmt"
	"math"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hugepages"
	"github.com/pathflow/pathflow/internal/parallel"
)

// The Parquet graph tables load column by column on every core (see
// parquetColumns); the checks that follow run on every core as well. The
// result is the one the record-batch reader of Arrow IPC tables gives.

// readEdgesParquet reads an edges table written as Parquet. O(M) work over
// cfg.concurrency goroutines.
func readEdgesParquet(path string, n int32, cfg Config) (e *graph.EdgeList, meta map[string]string, err error) {
	pc, err := openParquetColumns(path, cfg)
	if err != nil {
		return nil, nil, err
	}
	defer pc.Close()
	idx, err := ColumnIndices(pc.schema, EdgesSchema(nil).Fields())
	if err != nil {
		return nil, nil, fmt.Errorf("%w (in %s)", err, path)
	}
	if pc.rows > math.MaxInt {
		return nil, nil, fmt.Errorf("tables: %s: %d rows", path, pc.rows)
	}
	m := int(pc.rows)
	e = &graph.EdgeList{N: n, Src: hugepages.Make[int32](m), Dst: hugepages.Make[int32](m), Weight: hugepages.Make[int32](m)}
	err = pc.read(cfg.Concurrency, []columnTarget{{field: idx[0], i32: e.Src}, {field: idx[1], i32: e.Dst}, {field: idx[2], i32: e.Weight}})
	if err != nil {
		return nil, nil, err
	}
	if err := validateArcs(e, cfg.Concurrency); err != nil {
		return nil, nil, fmt.Errorf("tables: %s: %w", path, err)
	}
	return e, UserMeta(pc.schema), nil
}

// readVerticesParquet reads a vertices table written as Parquet, as
// readVertices does. O(N) work over cfg.concurrency goroutines.
func readVerticesParquet(path string, cfg Config) (vs *graph.Vertices, n int32, err error) {
	pc, err := openParquetColumns(path, cfg)
	if err != nil {
		return nil, 0, err
	}
	defer pc.Close()
	cols, err := findVertexColumns(pc.schema)
	if err != nil {
		return nil, 0, fmt.Errorf("%w (in %s)", err, path)
	}
	if pc.rows > math.MaxInt32 {
		return nil, 0, errors.New("tables: more vertices than int32 ids can number")
	}
	rows := int(pc.rows)
	ids := hugepages.Make[int32](rows)
	vs = &graph.Vertices{OriginalID: hugepages.Make[int64](rows), Geographic: cols.geographic}
	targets := []columnTarget{{field: cols.id, i32: ids}, {field: cols.original, i64: vs.OriginalID}}
	switch {
	case cols.geographic:
		vs.X, vs.Y = hugepages.Make[int32](rows), hugepages.Make[int32](rows)
		targets = append(targets, columnTarget{field: cols.x, units: vs.X}, columnTarget{field: cols.y, units: vs.Y})
	case cols.coordinates():
		vs.X, vs.Y = hugepages.Make[int32](rows), hugepages.Make[int32](rows)
		targets = append(targets, columnTarget{field: cols.x, i32: vs.X}, columnTarget{field: cols.y, i32: vs.Y})
	}
	if err := pc.read(cfg.Concurrency, targets); err != nil {
		return nil, 0, err
	}
	badID, identity := checkIDs(ids, vs.OriginalID, cfg.Concurrency)
	if badID >= 0 {
		return nil, 0, fmt.Errorf("tables: vertex row %d has id %d (reading %s)", badID, ids[badID], path)
	}
	if identity {
		vs.OriginalID = nil
	}
	return vs, int32(rows), nil
}

// chunkRows is the size of the slices the checks split arrays into.
const chunkRows = 1 << 16

// checkIDs returns the first row whose id is not its row number (-1 when
// none) and whether every original id equals its row number.
func checkIDs(ids []int32, orig []int64, workers int) (badRow int, identity bool) {
	chunks := (len(ids) + chunkRows - 1) / chunkRows
	bad := make([]int, chunks)
	ident := make([]bool, chunks)
	parallel.For(chunks, workers, func(c int) {
		lo, hi := c*chunkRows, min((c+1)*chunkRows, len(ids))
		bad[c], ident[c] = -1, true
		for i := lo; i < hi; i++ {
			if int(ids[i]) != i {
				bad[c] = i
				break
			}
		}
		for i := lo; i < hi; i++ {
			if orig[i] != int64(i) {
				ident[c] = false
				break
			}
		}
	})
	identity = true
	for c := range chunks {
		if bad[c] >= 0 {
			return bad[c], false
		}
		identity = identity && ident[c]
	}
	return -1, identity
}

// validateArcs is e.Validate with the range checks of the arcs on workers
// goroutines; a failure gives Validate's own error.
func validateArcs(e *graph.EdgeList, workers int) error {
	if e.N < 0 || len(e.Dst) != len(e.Src) || len(e.Weight) != len(e.Src) {
		return e.Validate()
	}
	chunks := (len(e.Src) + chunkRows - 1) / chunkRows
	bad := make([]bool, chunks)
	parallel.For(chunks, workers, func(c int) {
		lo, hi := c*chunkRows, min((c+1)*chunkRows, len(e.Src))
		n := uint32(e.N)
		for i := lo; i < hi; i++ {
			// One unsigned compare per endpoint: negative ids wrap above N.
			if uint32(e.Src[i]) >= n || uint32(e.Dst[i]) >= n {
				bad[c] = true
				return
			}
		}
	})
	for _, b := range bad {
		if b {
			return e.Validate()
		}
	}
	return nil
}
