package tablestest

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// Delta is the encoding the writers choose for integer columns.
var Delta = parquet.Encodings.DeltaBinaryPacked

// CheckParquetEncodings checks that each Parquet file named in want has
// exactly the columns listed for it, each carrying its listed encoding (a
// misspelt column path in a writer would silently fall back to PLAIN) and
// compressed with the default codec, snappy.
func CheckParquetEncodings(t testing.TB, want map[string]map[string]parquet.Encoding) {
	t.Helper()
	for path, cols := range want {
		pf, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		rg := pf.MetaData().RowGroup(0)
		for i := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(i)
			if err != nil {
				t.Fatal(err)
			}
			col := cc.PathInSchema().String()
			enc, ok := cols[col]
			if !ok {
				t.Errorf("%s: unexpected column %s", filepath.Base(path), col)
				continue
			}
			if !slices.Contains(cc.Encodings(), enc) {
				t.Errorf("%s: column %s has encodings %v, want %v", filepath.Base(path), col, cc.Encodings(), enc)
			}
			if cc.Compression() != compress.Codecs.Snappy {
				t.Errorf("%s: column %s compressed with %v, want snappy", filepath.Base(path), col, cc.Compression())
			}
			delete(cols, col)
		}
		pf.Close()
		for col := range cols {
			t.Errorf("%s: no column %s", filepath.Base(path), col)
		}
	}
}
