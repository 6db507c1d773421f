package geoparquet

import (
	"path/filepath"
	"testing"

	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/tables"
)

// TestDuckDBSeesTheRoutes reads routes with DuckDB, whose Parquet reader
// turns a GeoParquet WKB column into its GEOMETRY type (no extension
// needed): the column must come out as geometry in OGC:CRS84, which says
// DuckDB took the missing crs as the specification defines it, and each
// route as the WKT that its points make.
func TestDuckDBSeesTheRoutes(t *testing.T) {
	duckdbtest.Require(t)
	cfg, err := tables.NewConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "routes.parquet")
	if _, err := WriteFile(path, testLeading, nil, tables.ParquetEncoding{}, cfg, appendRoutes(testRoutes)); err != nil {
		t.Fatal(err)
	}
	routes := "read_parquet(" + duckdbtest.SQLString(path) + ")"
	res := duckdbtest.Query(t,
		"SELECT column_type FROM (DESCRIBE SELECT geometry FROM "+routes+")",
		"SELECT geometry::VARCHAR FROM "+routes,
	)
	if got := duckdbtest.Text(res[0].Rows[0][0]); got != "GEOMETRY('OGC:CRS84')" {
		t.Errorf("DuckDB types the geometry column %s, want GEOMETRY('OGC:CRS84')", got)
	}
	want := []string{
		"LINESTRING (-75.5 39.7, -75.52 39.71, -75.51 39.73)",
		"LINESTRING (-75.6 39.1, -75.6 39.1)",
		"NULL",
		"NULL",
		"LINESTRING (-75.05 38.45, -75.4 38.9)",
	}
	if len(res[1].Rows) != len(want) {
		t.Fatalf("DuckDB reads %d rows, want %d", len(res[1].Rows), len(want))
	}
	for i, row := range res[1].Rows {
		if got := duckdbtest.Text(row[0]); got != want[i] {
			t.Errorf("row %d: DuckDB reads %s, want %s", i, got, want[i])
		}
	}
}
