package tables

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// roadColumns are the arc columns of a road network of m arcs, as an
// OpenStreetMap ingest writes them.
func roadColumns(seed uint64, m int) []ArcColumn {
	rng := tablestest.NewRand(seed)
	timeMs, lengthM, wayID := make([]int32, m), make([]int32, m), make([]int64, m)
	for i := range m {
		lengthM[i] = rng.Int32N(5000)
		timeMs[i] = lengthM[i] * 90
		wayID[i] = 1<<33 + rng.Int64N(1<<20)
	}
	return []ArcColumn{
		{Name: "time_ms", Unit: "ms", Int32: timeMs},
		{Name: "length_m", Unit: "m", Int32: lengthM},
		{Name: "way_id", Int64: wayID},
	}
}

// TestArcColumnsRoundTrip writes extra arc columns in both formats: they
// follow src, dst and weight with their types and units, ReadGraph reads
// the graph as if they were not there, ReadArcColumn reads each back, and
// a rewrite of what was read gives the same bytes.
func TestArcColumnsRoundTrip(t *testing.T) {
	t.Parallel()
	e := randomGraph(tablestest.NewRand(21), 400, 5000)
	cols := roadColumns(21, e.M())
	for _, format := range formats {
		t.Run(format.String(), func(t *testing.T) {
			mem := tablestest.CheckedAllocator(t)
			files := GraphFilesIn(t.TempDir(), format)
			if _, err := WriteGraph(files, e, nil, tablestest.Meta, WithFormat(format), WithAllocator(mem), WithBatchRows(1200), WithArcColumns(cols...)); err != nil {
				t.Fatal(err)
			}
			tr, err := OpenTable(files.Edges, defaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			schema := tr.Schema()
			tr.Close()
			var got []string
			for _, f := range schema.Fields() {
				unit, _ := f.Metadata.GetValue(FieldUnit)
				got = append(got, f.Name+":"+f.Type.String()+":"+unit)
			}
			want := []string{"src:int32:", "dst:int32:", "weight:int32:", "time_ms:int32:ms", "length_m:int32:m", "way_id:int64:"}
			if !slices.Equal(got, want) {
				t.Errorf("edges columns %v, want %v", got, want)
			}

			e2, _, meta, err := ReadGraph(files, WithConcurrency(3))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(e2.Src, e.Src) || !reflect.DeepEqual(e2.Dst, e.Dst) || !reflect.DeepEqual(e2.Weight, e.Weight) {
				t.Error("ReadGraph read other arcs beside extra columns")
			}
			var read []ArcColumn
			for _, c := range cols {
				back, err := ReadArcColumn(files.Edges, c.Name, WithConcurrency(3))
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(back, c) {
					t.Errorf("column %s read back as %+v", c.Name, back)
				}
				read = append(read, back)
			}
			if w, err := ReadArcColumn(files.Edges, ColWeight); err != nil || !slices.Equal(w.Int32, e.Weight) {
				t.Errorf("the weight column read back with error %v", err)
			}
			if _, err := ReadArcColumn(files.Edges, "speed"); err == nil || !strings.Contains(err.Error(), `no column "speed"`) {
				t.Errorf("a missing column read with error %v", err)
			}

			again := GraphFilesIn(t.TempDir(), format)
			if _, err := WriteGraph(again, e2, nil, meta, WithFormat(format), WithBatchRows(1200), WithArcColumns(read...)); err != nil {
				t.Fatal(err)
			}
			tablestest.SameBytes(t, files.Edges, again.Edges)
		})
	}
}

// TestArcColumnsParquetEncodings: extra columns are delta-encoded like
// the graph's.
func TestArcColumnsParquetEncodings(t *testing.T) {
	t.Parallel()
	e := graph.NewEdgeList(3, 2)
	e.Add(0, 1, 4)
	e.Add(1, 2, 5)
	files := GraphFilesIn(t.TempDir(), Parquet)
	if _, err := WriteGraph(files, e, nil, nil, WithArcColumns(roadColumns(1, 2)...)); err != nil {
		t.Fatal(err)
	}
	delta := tablestest.Delta
	tablestest.CheckParquetEncodings(t, map[string]map[string]parquet.Encoding{
		files.Edges: {"src": delta, "dst": delta, "weight": delta, "time_ms": delta, "length_m": delta, "way_id": delta},
	})
}

// TestArcColumnsRejected: columns a table cannot carry are refused before
// anything is written.
func TestArcColumnsRejected(t *testing.T) {
	t.Parallel()
	e := graph.NewEdgeList(3, 2)
	e.Add(0, 1, 4)
	e.Add(1, 2, 5)
	two := []int32{1, 2}
	for name, tc := range map[string]struct {
		cols []ArcColumn
		want string
	}{
		"a graph column's name": {[]ArcColumn{{Name: ColWeight, Int32: two}}, "already has a column"},
		"a name twice":          {[]ArcColumn{{Name: "a", Int32: two}, {Name: "a", Int64: []int64{1, 2}}}, "already has a column"},
		"no name":               {[]ArcColumn{{Int32: two}}, "without a name"},
		"no values":             {[]ArcColumn{{Name: "a"}}, "exactly one"},
		"both types":            {[]ArcColumn{{Name: "a", Int32: two, Int64: []int64{1, 2}}}, "exactly one"},
		"too few values":        {[]ArcColumn{{Name: "a", Int32: two[:1]}}, "1 values for 2 arcs"},
		"too many values":       {[]ArcColumn{{Name: "a", Int64: []int64{1, 2, 3}}}, "3 values for 2 arcs"},
	} {
		dir := t.TempDir()
		_, err := WriteGraph(GraphFilesIn(dir, Parquet), e, nil, nil, WithArcColumns(tc.cols...))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: WriteGraph error %v, want one saying %q", name, err, tc.want)
		}
		if _, _, err := GraphRecords(e, nil, nil, WithArcColumns(tc.cols...)); err == nil {
			t.Errorf("%s: GraphRecords accepted the columns", name)
		}
	}
}

// TestArcColumnsInGraphRecords: the in-memory batches carry the extra
// columns after the graph's.
func TestArcColumnsInGraphRecords(t *testing.T) {
	t.Parallel()
	mem := tablestest.CheckedAllocator(t)
	e := randomGraph(tablestest.NewRand(22), 20, 100)
	cols := roadColumns(22, e.M())
	edges, vertices, err := GraphRecords(e, nil, nil, WithAllocator(mem), WithBatchRows(30), WithArcColumns(cols...))
	if err != nil {
		t.Fatal(err)
	}
	var way []int64
	for _, rec := range edges {
		if rec.NumCols() != 6 || rec.ColumnName(5) != "way_id" {
			t.Fatalf("edges batch columns %v", rec.Schema())
		}
		way = append(way, rec.Column(5).(*array.Int64).Int64Values()...)
		rec.Release()
	}
	for _, rec := range vertices {
		rec.Release()
	}
	if !slices.Equal(way, cols[2].Int64) {
		t.Error("way ids differ from those given")
	}
}
