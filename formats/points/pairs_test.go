package points

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// pairCoords are the four coordinate columns of a file of trips, in the
// order origin lon, origin lat, destination lon, destination lat.
type pairCoords [4][]float64

func coordsOf(t *PairTable) pairCoords {
	return pairCoords{t.OriginLon, t.OriginLat, t.DestinationLon, t.DestinationLat}
}

// checkPairs compares a file of trips with what it should hold.
func checkPairs(t *testing.T, tab *PairTable, path string, idType arrow.DataType, ids any, idName string, want pairCoords) {
	t.Helper()
	if !arrow.TypeEqual(tab.IDs.DataType(), idType) {
		t.Fatalf("id type %s, want %s", tab.IDs.DataType(), idType)
	}
	if got := idValues(t, tab.IDs); !reflect.DeepEqual(got, ids) {
		t.Errorf("ids %v, want %v", got, ids)
	}
	if tab.IDs.NullN() != 0 {
		t.Errorf("%d null ids", tab.IDs.NullN())
	}
	if tab.IDName != idName || tab.Path != path {
		t.Errorf("id name %q, path %q; want %q, %q", tab.IDName, tab.Path, idName, path)
	}
	if tab.Len() != tab.IDs.Len() {
		t.Errorf("%d rows, %d ids", tab.Len(), tab.IDs.Len())
	}
	for k, got := range coordsOf(tab) {
		if !sameFloats(got, want[k]) {
			t.Errorf("%s %v, want %v", pairLayout[k+1].name(), got, want[k])
		}
	}
}

// TestReadPairsCSV reads CSV files of trips of each shape a user may hand
// over: int and string ids, both spellings of the columns, nulls.
func TestReadPairsCSV(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		text   string
		gzip   bool
		idType arrow.DataType
		ids    any
		idName string
		coords pairCoords
	}{
		{
			name:   "int ids, duplicates kept in order",
			text:   "id,origin_lon,origin_lat,destination_lon,destination_lat\n5,-75.5,39.25,-75.625,39\n3,1,2,3,4\n5,-75.5,39.25,-75.625,39\n",
			idType: arrow.PrimitiveTypes.Int64, ids: []int64{5, 3, 5}, idName: "id",
			coords: pairCoords{{-75.5, 1, -75.5}, {39.25, 2, 39.25}, {-75.625, 3, -75.625}, {39, 4, 39}},
		},
		{
			name:   "string ids, from and to, any case and order, extra columns",
			text:   "To_Lat,note,FROM_LON,Id,to_lon,from_lat\n-90,x,180,\"a,1\",-180,90\n1.5,y,2.5,trip 7,3.5,4.5\n",
			idType: arrow.BinaryTypes.String, ids: []string{"a,1", "trip 7"}, idName: "Id",
			coords: pairCoords{{180, 2.5}, {90, 4.5}, {-180, 3.5}, {-90, 1.5}},
		},
		{
			name:   "the two spellings mixed",
			text:   "id,from_lon,origin_lat,destination_lon,to_lat\n1,1,2,3,4\n",
			idType: arrow.PrimitiveTypes.Int64, ids: []int64{1}, idName: "id",
			coords: pairCoords{{1}, {2}, {3}, {4}},
		},
		{
			name:   "a null coordinate reads as NaN, each end on its own",
			text:   "id,origin_lon,origin_lat,destination_lon,destination_lat\n1,,39.1,-75,39\n2,-75.1,39.1,,\n3,-75,39,-75.2,\n",
			idType: arrow.PrimitiveTypes.Int64, ids: []int64{1, 2, 3}, idName: "id",
			coords: pairCoords{{nan, -75.1, -75}, {39.1, 39.1, 39}, {-75, nan, -75.2}, {39, nan, nan}},
		},
		{
			name: "gzip", gzip: true,
			text:   "id,origin_lon,origin_lat,destination_lon,destination_lat\n007,1,2,3,4\nx,5,6,7,8\n",
			idType: arrow.BinaryTypes.String, ids: []string{"007", "x"}, idName: "id",
			coords: pairCoords{{1, 5}, {2, 6}, {3, 7}, {4, 8}},
		},
		{
			name:   "a header only",
			text:   "id,origin_lon,origin_lat,destination_lon,destination_lat\n",
			idType: arrow.PrimitiveTypes.Int64, ids: []int64{}, idName: "id",
			coords: pairCoords{{}, {}, {}, {}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.text)
			if tc.gzip {
				data = gzipped(tc.text)
			}
			path := writeFile(t, filepath.Join(dir, "trips.parquet"), data) // the bytes decide
			tab, err := ReadPairs(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Release()
			checkPairs(t, tab, path, tc.idType, tc.ids, tc.idName, tc.coords)
		})
	}
}

// TestReadPairsCSVExact checks that coordinates in full float64
// precision, written in their shortest exact form, read back bit for bit,
// and that each lands in its own column.
func TestReadPairsCSVExact(t *testing.T) {
	rng := tablestest.NewRand(11)
	const n = 200
	var want pairCoords
	var b strings.Builder
	b.WriteString("id,origin_lon,origin_lat,destination_lon,destination_lat\n")
	for i := range n {
		b.WriteString(strconv.Itoa(i))
		for k := range want {
			limit := pairLayout[k+1].limit
			v := (2*rng.Float64() - 1) * limit
			want[k] = append(want[k], v)
			b.WriteString("," + strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteString("\n")
	}
	path := writeFile(t, filepath.Join(t.TempDir(), "trips.csv"), []byte(b.String()))
	tab, err := ReadPairs(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = int64(i)
	}
	checkPairs(t, tab, path, arrow.PrimitiveTypes.Int64, ids, "id", want)
	if got := tab.IDText(n - 1); got != strconv.Itoa(n-1) {
		t.Errorf("IDText %q", got)
	}
}

// TestReadPairsTables reads Parquet and Arrow IPC files of trips with each
// id type and coordinate type, in two batches, and checks that the ids
// keep their type and values and each coordinate its column and order.
func TestReadPairsTables(t *testing.T) {
	for _, idc := range []struct {
		dt   arrow.DataType
		json [3]string
		want any
	}{
		{arrow.PrimitiveTypes.Int64, [3]string{"9007199254740993", "-4", "9007199254740993"}, []int64{9007199254740993, -4, 9007199254740993}},
		{arrow.PrimitiveTypes.Int32, [3]string{"2147483647", "-4", "0"}, []int32{math.MaxInt32, -4, 0}},
		{arrow.PrimitiveTypes.Uint64, [3]string{"18446744073709551615", "4", "0"}, []uint64{math.MaxUint64, 4, 0}},
		{arrow.BinaryTypes.String, [3]string{`"zone 7"`, `"a,b"`, `"Ünïcode"`}, []string{"zone 7", "a,b", "Ünïcode"}},
		{arrow.BinaryTypes.LargeString, [3]string{`"x"`, `"y"`, `"x"`}, []string{"x", "y", "x"}},
	} {
		for _, coord := range []arrow.DataType{arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Int16} {
			// Values every coordinate type holds exactly; each column its own.
			values := [4][3]string{{"-75.5", "12.25", "null"}, {"39.25", "null", "-33.875"}, {"null", "-1.5", "179.75"}, {"-89.5", "0.125", "7"}}
			want := pairCoords{{-75.5, 12.25, nan}, {39.25, nan, -33.875}, {nan, -1.5, 179.75}, {-89.5, 0.125, 7}}
			if coord.ID() == arrow.INT16 {
				values = [4][3]string{{"-75", "12", "null"}, {"39", "null", "-33"}, {"null", "-1", "179"}, {"-89", "0", "7"}}
				want = pairCoords{{-75, 12, nan}, {39, nan, -33}, {nan, -1, 179}, {-89, 0, 7}}
			}
			var rows []string
			for k := range 3 {
				rows = append(rows, fmt.Sprintf(`{"to_lat": %s, "note": "n%d", "origin_lat": %s, "ID": %s, "Destination_Lon": %s, "from_lon": %s}`,
					values[3][k], k, values[1][k], idc.json[k], values[2][k], values[0][k]))
			}
			schema := arrow.NewSchema([]arrow.Field{
				{Name: "to_lat", Type: coord, Nullable: true},
				{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
				{Name: "origin_lat", Type: coord, Nullable: true},
				{Name: "ID", Type: idc.dt},
				{Name: "Destination_Lon", Type: coord, Nullable: true},
				{Name: "from_lon", Type: coord, Nullable: true},
			}, nil)
			for _, kind := range tableKinds {
				t.Run(fmt.Sprintf("%s/%s ids/%s coordinates", kind.name, idc.dt, coord), func(t *testing.T) {
					path := writeJSON(t, kind, filepath.Join(t.TempDir(), "trips"), schema, rows[:2], rows[2:])
					mem := memory.Allocator(memory.DefaultAllocator)
					if kind.name == "arrow" { // Parquet decoding uses the default allocator
						mem = tablestest.CheckedAllocator(t)
					}
					tab, err := readPairs(path, mem)
					if err != nil {
						t.Fatal(err)
					}
					defer tab.Release()
					checkPairs(t, tab, path, idc.dt, idc.want, "ID", want)
				})
			}
		}
	}
}

// TestPairsAreNotPlaces checks that each reader names the columns it
// misses when handed the other's file.
func TestPairsAreNotPlaces(t *testing.T) {
	dir := t.TempDir()
	trips := writeFile(t, filepath.Join(dir, "trips.csv"), []byte("id,origin_lon,origin_lat,destination_lon,destination_lat\n1,2,3,4,5\n"))
	places := writeFile(t, filepath.Join(dir, "places.csv"), []byte("id,lon,lat\n1,2,3\n"))
	if _, err := Read(trips); err == nil || !strings.Contains(err.Error(), `no lon (or longitude) column (the file has columns "id", "origin_lon",`) {
		t.Errorf("places from a file of trips: %v", err)
	}
	if _, err := ReadPairs(places); err == nil || !strings.Contains(err.Error(), `no origin_lon (or from_lon) column (the file has columns "id", "lon", "lat")`) {
		t.Errorf("trips from a file of places: %v", err)
	}
}
