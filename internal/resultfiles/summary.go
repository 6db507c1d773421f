package resultfiles

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/arrowslices"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
)

// NoEccentricity is the Eccentricity of a source that reaches no other
// vertex (null in the table): results.NoEccentricity, which no distance
// can take.
const NoEccentricity = results.NoEccentricity

// SummaryRow is one row of the summary table: what a single-source search
// says about its source.
type SummaryRow struct {
	Source int32
	// Reachable is the number of vertices the source reaches, itself
	// included.
	Reachable int64
	// Eccentricity is the largest distance from the source to a vertex it
	// reaches other than itself, or NoEccentricity when it reaches none.
	Eccentricity int64
	// Closeness is the Wasserman-Faust closeness of the source, or NaN (null
	// in the table) when undefined; see Summarize.
	Closeness float64
}

// Summarize computes the summary row of a tree over n = len(t.Dist)
// vertices, from the source's reachable set R (source included, r = |R|)
// and S, the sum of the distances to R minus the source:
//
//	closeness = (r-1)/(n-1) * (r-1)/S
//
// the Wasserman-Faust form of closeness centrality, which stays comparable
// between sources that reach different numbers of vertices (on a strongly
// connected graph it is the classic (n-1)/S). It uses distances from the
// source, i.e. out-closeness. It is NaN when r = 1 (nothing else reached)
// and when S <= 0, which only zero or negative arc weights allow and where
// the measure means nothing. O(n).
func Summarize(t *paths.Tree) SummaryRow {
	row := SummaryRow{Source: t.Source, Eccentricity: NoEccentricity, Closeness: math.NaN()}
	var (
		sum      int64
		fsum     float64
		overflow bool
	)
	for v, d := range t.Dist {
		if d == paths.Unreachable {
			continue
		}
		row.Reachable++
		if int32(v) == t.Source {
			continue
		}
		row.Eccentricity = max(row.Eccentricity, d)
		// Exact int64 sums unless they would overflow, then float64.
		if !overflow && ((d > 0 && sum > math.MaxInt64-d) || (d < 0 && sum < math.MinInt64-d)) {
			overflow, fsum = true, float64(sum)
		}
		if overflow {
			fsum += float64(d)
		} else {
			sum += d
		}
	}
	if !overflow {
		fsum = float64(sum)
	}
	if r := float64(row.Reachable); row.Reachable > 1 && fsum > 0 {
		row.Closeness = (r - 1) / float64(len(t.Dist)-1) * (r - 1) / fsum
	}
	return row
}

var summaryEncoding = tables.ParquetEncoding{Delta: []string{ColSource, ColReachable, ColEccentricity}}

// WriteSummary writes rows as a summary table (SummarySchema) to path,
// which belongs in an output folder committed as a whole, in batches of at
// most WithBatchRows rows; with ids.Write, each row ends with its
// source's input id.
func WriteSummary(path string, rows []SummaryRow, ids OriginalIDs, meta map[string]string, opts ...tables.Option) (tables.FileInfo, error) {
	cfg, err := tables.NewConfig(opts)
	if err != nil {
		return tables.FileInfo{}, err
	}
	if err := tables.CheckMeta(meta); err != nil {
		return tables.FileInfo{}, err
	}
	schema := SummarySchema(ids, meta)
	return tables.WriteFile(path, schema, summaryEncoding, cfg, func(emit func(arrow.RecordBatch) error) error {
		for lo := 0; lo < len(rows); lo += cfg.BatchRows {
			rec := summaryRecord(cfg.Mem, schema, rows[lo:min(lo+cfg.BatchRows, len(rows))], ids)
			err := emit(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return nil
	})
}

func summaryRecord(mem memory.Allocator, schema *arrow.Schema, rows []SummaryRow, ids OriginalIDs) arrow.RecordBatch {
	n := len(rows)
	srcBuf, src := arrowslices.Int32Buffer(mem, n)
	reachBuf, reach := arrowslices.Int64Buffer(mem, n)
	eccBuf, ecc := arrowslices.Int64Buffer(mem, n)
	eccValid, eccBits := arrowslices.BitmapBuffer(mem, n)
	closeBuf, closeness := arrowslices.Float64Buffer(mem, n)
	closeValid, closeBits := arrowslices.BitmapBuffer(mem, n)
	defer func() {
		for _, b := range []*memory.Buffer{srcBuf, reachBuf, eccBuf, eccValid, closeBuf, closeValid} {
			b.Release()
		}
	}()
	eccNulls, closeNulls := 0, 0
	for i, r := range rows {
		src[i], reach[i], ecc[i], closeness[i] = r.Source, r.Reachable, r.Eccentricity, r.Closeness
		if r.Eccentricity != NoEccentricity {
			bitSet(eccBits, i)
		} else {
			eccNulls++
		}
		if !math.IsNaN(r.Closeness) {
			bitSet(closeBits, i)
		} else {
			closeNulls++
		}
	}
	cols := []arrow.Array{
		arrowslices.Primitive(int32Type, n, nil, 0, srcBuf),
		arrowslices.Primitive(int64Type, n, nil, 0, reachBuf),
		arrowslices.Primitive(int64Type, n, arrowslices.BitmapOrNil(eccValid, n, eccNulls), eccNulls, eccBuf),
		arrowslices.Primitive(float64Type, n, arrowslices.BitmapOrNil(closeValid, n, closeNulls), closeNulls, closeBuf),
	}
	if ids.Write {
		orig := make([]int64, n)
		for i, r := range rows {
			orig[i] = ids.Vertices.Original(r.Source)
		}
		cols = append(cols, arrowslices.WrapInt64(orig))
	}
	return arrowslices.NewRecord(schema, n, cols...)
}

// ReadSummary reads a summary table in either format and returns its rows
// and schema metadata; nulls read back as NoEccentricity and NaN. The
// input's ids, when written, are not read: the rows name sources densely.
func ReadSummary(path string, opts ...tables.Option) (rows []SummaryRow, meta map[string]string, err error) {
	_, meta, err = tables.ScanTable(path, SummarySchema(OriginalIDs{}, nil), []int{0, 1}, opts, func(rec arrow.RecordBatch, idx []int) error {
		src := rec.Column(idx[0]).(*array.Int32).Int32Values()
		reach := rec.Column(idx[1]).(*array.Int64).Int64Values()
		eccCol := rec.Column(idx[2]).(*array.Int64)
		closeCol := rec.Column(idx[3]).(*array.Float64)
		ecc, closeness := eccCol.Int64Values(), closeCol.Float64Values()
		for i := range src {
			r := SummaryRow{Source: src[i], Reachable: reach[i], Eccentricity: NoEccentricity, Closeness: math.NaN()}
			if eccCol.IsValid(i) {
				r.Eccentricity = ecc[i]
			}
			if closeCol.IsValid(i) {
				r.Closeness = closeness[i]
			}
			rows = append(rows, r)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return rows, meta, nil
}
