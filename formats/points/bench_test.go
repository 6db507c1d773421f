package points

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// millionRows is the size of the large fixtures: the snap benchmark's
// number of points.
const millionRows = 1_000_000

// places is a large set of places in and around Delaware, every third a
// repeat of an earlier one, with ids as integers and as text; every
// tenth has its coordinates in full float64 precision, the rest to 1e-7.
type places struct {
	ints     []int64
	strs     []string
	lon, lat []float64
}

func newPlaces(n int) places {
	rng := tablestest.NewRand(7)
	p := places{ints: make([]int64, n), strs: make([]string, n), lon: make([]float64, n), lat: make([]float64, n)}
	for i := range n {
		if i%3 == 2 {
			j := rng.IntN(i)
			p.ints[i], p.strs[i], p.lon[i], p.lat[i] = p.ints[j], p.strs[j], p.lon[j], p.lat[j]
			continue
		}
		p.ints[i] = rng.Int64() - 1<<62
		p.strs[i] = "zone-" + strconv.Itoa(i)
		// To 1e-7 degree, as OpenStreetMap stores them.
		p.lon[i] = math.Round((-75.8+0.8*rng.Float64())*1e7) / 1e7
		p.lat[i] = math.Round((38.45+1.4*rng.Float64())*1e7) / 1e7
		if i%10 == 0 {
			p.lon[i] += rng.Float64() * 1e-7
			p.lat[i] += rng.Float64() * 1e-7
		}
	}
	return p
}

// writeCSV writes p as CSV with the integer or the text ids, the
// coordinates in their shortest exact form, and a column to ignore.
func (p places) writeCSV(t testing.TB, path string, textIDs, gzip bool) string {
	t.Helper()
	b := []byte("id,lon,lat,name\n")
	for i := range p.lon {
		if textIDs {
			b = append(b, p.strs[i]...)
		} else {
			b = strconv.AppendInt(b, p.ints[i], 10)
		}
		b = append(b, ',')
		b = strconv.AppendFloat(b, p.lon[i], 'f', -1, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, p.lat[i], 'f', -1, 64)
		b = append(b, ",\"a place, somewhere\"\n"...)
	}
	if gzip {
		b = gzipped(string(b))
	}
	return writeFile(t, path, b)
}

// writeTable writes p as a file of kind in batches of 64Ki rows.
func (p places) writeTable(t testing.TB, kind fileKind, path string, textIDs bool) string {
	t.Helper()
	idType := arrow.DataType(arrow.PrimitiveTypes.Int64)
	if textIDs {
		idType = arrow.BinaryTypes.String
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: idType},
		{Name: "lon", Type: arrow.PrimitiveTypes.Float64},
		{Name: "lat", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	var batches []arrow.RecordBatch
	for start := 0; start < len(p.lon); start += 1 << 16 {
		end := min(start+1<<16, len(p.lon))
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		if textIDs {
			b.Field(0).(*array.StringBuilder).AppendValues(p.strs[start:end], nil)
		} else {
			b.Field(0).(*array.Int64Builder).AppendValues(p.ints[start:end], nil)
		}
		b.Field(1).(*array.Float64Builder).AppendValues(p.lon[start:end], nil)
		b.Field(2).(*array.Float64Builder).AppendValues(p.lat[start:end], nil)
		rec := b.NewRecordBatch()
		b.Release()
		defer rec.Release()
		batches = append(batches, rec)
	}
	return kind.write(t, path, batches...)
}

// largeFiles are the million-row fixtures of each kind, by name, with
// whether they hold the text ids.
func largeFiles(t testing.TB, p places) map[string]struct {
	path    string
	textIDs bool
} {
	dir := t.TempDir()
	type file = struct {
		path    string
		textIDs bool
	}
	files := map[string]file{
		"csv-int":    {p.writeCSV(t, filepath.Join(dir, "int.csv"), false, false), false},
		"csv-string": {p.writeCSV(t, filepath.Join(dir, "str.csv"), true, false), true},
		"csv-gzip":   {p.writeCSV(t, filepath.Join(dir, "int.csv.gz"), false, true), false},
	}
	for _, kind := range tableKinds {
		for _, text := range []bool{false, true} {
			name := fmt.Sprintf("%s-%s", kind.name, map[bool]string{false: "int", true: "string"}[text])
			files[name] = file{p.writeTable(t, kind, filepath.Join(dir, name), text), text}
		}
	}
	return files
}

// TestReadMillion reads a million places from each kind of file and
// checks every id, type included, and every coordinate.
func TestReadMillion(t *testing.T) {
	if testing.Short() {
		t.Skip("a million rows per file")
	}
	p := newPlaces(millionRows)
	for name, f := range largeFiles(t, p) {
		t.Run(name, func(t *testing.T) {
			tab, err := Read(f.path)
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Release()
			var want any = p.ints
			if f.textIDs {
				want = p.strs
			}
			if got := idValues(t, tab.IDs); !reflect.DeepEqual(got, want) {
				t.Errorf("ids differ (type %s)", tab.IDs.DataType())
			}
			if !reflect.DeepEqual(tab.Lon, p.lon) || !reflect.DeepEqual(tab.Lat, p.lat) {
				t.Errorf("coordinates differ")
			}
		})
	}
}

// BenchmarkRead reads a million places from each kind of file.
func BenchmarkRead(b *testing.B) {
	p := newPlaces(millionRows)
	files := largeFiles(b, p)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		f := files[name]
		b.Run(name, func(b *testing.B) {
			if st, err := os.Stat(f.path); err == nil {
				b.SetBytes(st.Size())
			}
			cpu := tablestest.CPUSeconds()
			for b.Loop() {
				tab, err := Read(f.path)
				if err != nil {
					b.Fatal(err)
				}
				tab.Release()
			}
			tablestest.ReportCPU(b, cpu)
			b.ReportMetric(float64(millionRows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}
