package tables

import (
	"fmt"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/internal/parallel"
)

// PartFileName is the name of part file i of a table folder in format f:
// part-00000.parquet, part-00001.parquet, ...; the names sort in part
// order, which readers that glob a folder keep.
func PartFileName(i int, f Format) string { return fmt.Sprintf("part-%05d%s", i, f.Ext()) }

// WriteRowParts writes a table of rows rows, whose rows are known up
// front in their final order (a list answered in file order), into the
// folder dir: part files of up to the configured part rows each, rows in
// order across them, each made of record batches of up to the configured
// batch rows that batch builds for rows lo..hi-1 (the writer releases
// them). Parts are encoded on up to the configured concurrency
// goroutines; the same rows and options give the same files whatever
// that concurrency. A table of no row is one empty part, so that readers
// find its schema. It returns the parts in order.
func WriteRowParts(dir string, schema *arrow.Schema, enc ParquetEncoding, rows int, batch func(lo, hi int) (arrow.RecordBatch, error), opts ...Option) ([]FileInfo, error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return nil, err
	}
	partRows := int(min(cfg.PartRows, int64(max(rows, 1))))
	parts := max(1, (rows+partRows-1)/partRows)
	infos, errs := make([]FileInfo, parts), make([]error, parts)
	parallel.For(parts, cfg.Concurrency, func(p int) {
		first, last := p*partRows, min((p+1)*partRows, rows)
		infos[p], errs[p] = WriteFile(filepath.Join(dir, PartFileName(p, cfg.Format)), schema, enc, cfg, func(emit func(arrow.RecordBatch) error) error {
			for lo := first; lo < last || lo == first; lo += cfg.BatchRows {
				hi := min(lo+cfg.BatchRows, last)
				rec, err := batch(lo, hi)
				if err != nil {
					return err
				}
				err = emit(rec)
				rec.Release()
				if err != nil || hi == last {
					return err
				}
			}
			return nil
		})
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return infos, nil
}
