package tables

import (
	"testing"

	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

var formats = []Format{Parquet, Arrow}

// checkInfo compares a FileInfo with the file on disk.
func checkInfo(t *testing.T, info FileInfo, wantRows int64) {
	t.Helper()
	tablestest.CheckFacts(t, tablestest.FileFacts{Path: info.Path, SHA256: info.SHA256, Bytes: info.Bytes, Rows: info.Rows}, wantRows)
}
