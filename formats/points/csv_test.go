package points

import (
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// nan marks a null coordinate in the expectations.
var nan = math.NaN()

// sameFloats compares coordinates, NaN equal to NaN.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) })
}

// TestReadCSV reads CSV files of each shape a user may hand over and
// checks the ids (values and type), their column name, the coordinates
// and the order.
func TestReadCSV(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		text     string
		gzip     bool
		idType   arrow.DataType
		ids      any
		idName   string
		lon, lat []float64
	}{
		{
			name:   "int ids, duplicates kept in order",
			text:   "id,lon,lat\n5,-75.5,39.25\n3,-75.625,39\n5,-75.5,39.25\n-8,0,0\n",
			idType: arrow.PrimitiveTypes.Int64, ids: []int64{5, 3, 5, -8}, idName: "id",
			lon: []float64{-75.5, -75.625, -75.5, 0}, lat: []float64{39.25, 39, 39.25, 0},
		},
		{
			name:   "int64 extremes survive",
			text:   "id,lon,lat\n9223372036854775807,1,2\n-9223372036854775808,3,4\n",
			idType: arrow.PrimitiveTypes.Int64, ids: []int64{math.MaxInt64, math.MinInt64}, idName: "id",
			lon: []float64{1, 3}, lat: []float64{2, 4},
		},
		{
			name:   "string ids, quoted fields, other names and case",
			text:   "\"ID\",\"Longitude\",Latitude,name\n\"a,1\",-75.5,\"39.5\",\"Joe \"\"J\"\" Smith\"\n b7 ,180,-90,\n\"\"\"q\"\"\",-180,90,x\n",
			idType: arrow.BinaryTypes.String, ids: []string{"a,1", "b7", `"q"`}, idName: "ID",
			lon: []float64{-75.5, 180, -180}, lat: []float64{39.5, -90, 90},
		},
		{
			name:   "an id that is not an integer makes all strings, as written",
			text:   "id,lon,lat\n007,1,1\n12,2,2\nx9,3,3\n",
			idType: arrow.BinaryTypes.String, ids: []string{"007", "12", "x9"}, idName: "id",
			lon: []float64{1, 2, 3}, lat: []float64{1, 2, 3},
		},
		{
			name:   "beyond int64 and a plus sign are strings",
			text:   "id,lon,lat\n9223372036854775808,1,1\n+5,2,2\n",
			idType: arrow.BinaryTypes.String, ids: []string{"9223372036854775808", "+5"}, idName: "id",
			lon: []float64{1, 2}, lat: []float64{1, 2},
		},
		{
			name:   "extra columns in any order, CRLF, BOM, blank lines",
			text:   "\ufeffname,lat,zone,id,lon\r\nhome,39.1,A,17,-75.2\r\n\r\nwork,39.2,B,4,-75.3\r\n",
			idType: arrow.PrimitiveTypes.Int64, ids: []int64{17, 4}, idName: "id",
			lon: []float64{-75.2, -75.3}, lat: []float64{39.1, 39.2},
		},
		{
			name:   "a null coordinate reads as NaN",
			text:   "id,lon,lat\n1,,39.1\n2,-75.1,\n3, , \n4,-75,39\n",
			idType: arrow.PrimitiveTypes.Int64, ids: []int64{1, 2, 3, 4}, idName: "id",
			lon: []float64{nan, -75.1, nan, -75}, lat: []float64{39.1, nan, nan, 39},
		},
		{
			name: "gzip", gzip: true,
			text:   "id,lon,lat\n5,-75.5,39.25\nz,1e1,-1.5e1\n",
			idType: arrow.BinaryTypes.String, ids: []string{"5", "z"}, idName: "id",
			lon: []float64{-75.5, 10}, lat: []float64{39.25, -15},
		},
		{
			name:   "a header only",
			text:   "id,lon,lat\n",
			idType: arrow.PrimitiveTypes.Int64, ids: []int64{}, idName: "id",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.text)
			if tc.gzip {
				data = gzipped(tc.text)
			}
			// A misleading name: the bytes decide.
			path := writeFile(t, filepath.Join(dir, "places.parquet"), data)
			tab, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Release()
			if !arrow.TypeEqual(tab.IDs.DataType(), tc.idType) {
				t.Fatalf("id type %s, want %s", tab.IDs.DataType(), tc.idType)
			}
			if got := idValues(t, tab.IDs); !reflect.DeepEqual(got, tc.ids) {
				t.Errorf("ids %v, want %v", got, tc.ids)
			}
			if tab.IDs.NullN() != 0 {
				t.Errorf("%d null ids", tab.IDs.NullN())
			}
			if tab.IDName != tc.idName || tab.Path != path {
				t.Errorf("id name %q, path %q; want %q, %q", tab.IDName, tab.Path, tc.idName, path)
			}
			if tab.Len() != tab.IDs.Len() || !sameFloats(tab.Lon, tc.lon) || !sameFloats(tab.Lat, tc.lat) {
				t.Errorf("%d rows, lon %v lat %v; want lon %v lat %v", tab.Len(), tab.Lon, tab.Lat, tc.lon, tc.lat)
			}
		})
	}
}
