package places

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pathflow/pathflow/internal/snap"
	"github.com/pathflow/pathflow/internal/tables"
)

// TestTableWriterParts writes a table of places across several part
// files (string origin ids, integer destination ids, a place that did not
// snap, pairs without a route) and reads it back in part order: every
// row, in request order, with its ids, distance and reason.
func TestTableWriterParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	origins := make([]snap.Place, 7)
	destinations := make([]snap.Place, 3)
	for i := range origins {
		origins[i] = snap.Place{OK: i != 4, Reason: "beyond the snap distance (2 km > 1 km)"}
	}
	for j := range destinations {
		destinations[j] = snap.Place{OK: true}
	}
	ob := array.NewStringBuilder(memory.DefaultAllocator)
	for i := range origins {
		ob.Append(fmt.Sprintf("store-%d", i))
	}
	originIDs := ob.NewArray()
	defer originIDs.Release()
	db := array.NewInt64Builder(memory.DefaultAllocator)
	db.AppendValues([]int64{900, 17, 900}, nil) // a repeated id
	destinationIDs := db.NewArray()
	defer destinationIDs.Release()

	dir := t.TempDir()
	w, err := NewTableWriter(dir, origins, destinations, originIDs, destinationIDs, arrow.Field{}, map[string]string{tables.MetaWeightUnit: "ms"}, tables.WithPartRows(6), tables.WithBatchRows(4), tables.WithConcurrency(3))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, p := range origins {
		row := make([]int64, len(destinations))
		for j := range row {
			row[j] = int64(rng.IntN(1000))
			reason := "<nil>"
			switch {
			case !p.OK:
				row[j] = NoPath
				reason = "origin: " + p.Reason
			case rng.IntN(4) == 0:
				row[j] = NoPath
				reason = ReasonNoRoute
			}
			dist := fmt.Sprint(row[j])
			if row[j] == NoPath {
				dist = "(null)"
			}
			want = append(want, fmt.Sprintf("store-%d %d %s %s", i, destinationIDs.(*array.Int64).Value(j), dist, reason))
		}
		if err := w.Emit(i, row, nil); err != nil {
			t.Fatal(err)
		}
	}
	parts, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 4 { // 6 rows a part: two origins each
		t.Fatalf("%d parts, want 4", len(parts))
	}
	var got []string
	for k, p := range parts {
		if p.Path != filepath.Join(dir, fmt.Sprintf("part-%05d.parquet", k)) {
			t.Errorf("part %d at %s", k, p.Path)
		}
		got = append(got, readRows(t, p.Path)...)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows\n got %q\nwant %q", got, want)
	}
}

// readRows reads a part as "origin destination distance reason" lines.
func readRows(t *testing.T, path string) []string {
	t.Helper()
	f, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pqarrow.NewFileReader(f, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := r.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if u := tbl.Schema().Field(2).Metadata; u.FindKey("unit") < 0 || u.Values()[u.FindKey("unit")] != "ms" {
		t.Errorf("distance field metadata %v", u)
	}
	var out []string
	tr := array.NewTableReader(tbl, 1<<10)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		cols := make([]arrow.Array, 4)
		for c := range cols {
			cols[c] = rec.Column(c)
		}
		for i := range int(rec.NumRows()) {
			reason := "<nil>"
			if cols[3].IsValid(i) {
				reason = cols[3].(*array.String).Value(i)
			}
			out = append(out, fmt.Sprintf("%s %s %s %s", cols[0].ValueStr(i), cols[1].ValueStr(i), cols[2].ValueStr(i), reason))
		}
	}
	return out
}
