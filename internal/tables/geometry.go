package tables

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/arrowslices"
	"github.com/pathflow/pathflow/internal/graph"
)

// Column names of the arc geometry table.
const (
	ColArc = "arc"
)

// ArcGeometry is the shape of each arc between its end vertices: the
// points a road follows from one intersection to the next. Arc a's
// intermediate points, in travel order and without its end vertices, are
// X[Offsets[a]:Offsets[a+1]] and the same rows of Y, in units of 10^-7
// degree like geographic graph.Vertices; a straight arc has none.
type ArcGeometry struct {
	// Offsets has one entry per arc and one more: Offsets[0] is 0 and
	// Offsets[M] is len(X).
	Offsets []int64
	// X and Y are the longitude and latitude of every point, in units of
	// 10^-7 degree (graph.UnitsPerDegree).
	X, Y []int32
}

// Arcs returns the number of arcs g describes.
func (g ArcGeometry) Arcs() int { return max(len(g.Offsets)-1, 0) }

// Points returns the intermediate points of arc a as slices of X and Y.
func (g ArcGeometry) Points(a int) (x, y []int32) {
	lo, hi := g.Offsets[a], g.Offsets[a+1]
	return g.X[lo:hi], g.Y[lo:hi]
}

// check refuses a geometry whose offsets do not partition its points, or
// whose points are no longitude and latitude.
func (g ArcGeometry) check() error {
	switch {
	case len(g.Offsets) == 0:
		return errors.New("tables: arc geometry without offsets (want one per arc and one more)")
	case len(g.Offsets)-1 > math.MaxInt32:
		return fmt.Errorf("tables: arc geometry of %d arcs: more than int32 arc numbers can name", len(g.Offsets)-1)
	case len(g.X) != len(g.Y):
		return fmt.Errorf("tables: arc geometry with %d longitudes and %d latitudes", len(g.X), len(g.Y))
	case g.Offsets[0] != 0 || g.Offsets[len(g.Offsets)-1] != int64(len(g.X)):
		return fmt.Errorf("tables: arc geometry offsets span [%d, %d] for %d points", g.Offsets[0], g.Offsets[len(g.Offsets)-1], len(g.X))
	}
	for a := range len(g.Offsets) - 1 {
		if g.Offsets[a+1] < g.Offsets[a] {
			return fmt.Errorf("tables: arc geometry offsets decrease at arc %d", a)
		}
	}
	return (&graph.Vertices{X: g.X, Y: g.Y, Geographic: true}).CheckGeographic()
}

// GeometryFileIn returns the conventional name of the arc geometry table
// in dir: geometry.<ext>, with the extension of format f.
func GeometryFileIn(dir string, f Format) string {
	return filepath.Join(dir, "geometry"+f.Ext())
}

// ArcGeometrySchema is the schema of the arc geometry table: one row per
// arc that has intermediate points, in arc order; arc is the arc's row in
// the edges table, lon and lat its points in float64 degrees, with the
// CRS metadata of the vertices table's lon and lat (on the list fields)
// and MetaCRS in the schema metadata.
func ArcGeometrySchema(meta map[string]string) *arrow.Schema {
	points := arrow.ListOfNonNullable(float64Type)
	return SchemaWith(withCRS(meta),
		arrow.Field{Name: ColArc, Type: int32Type},
		arrow.Field{Name: ColLon, Type: points, Metadata: degreesMetadata()},
		arrow.Field{Name: ColLat, Type: points, Metadata: degreesMetadata()})
}

// The arc numbers of the rows increase, mostly by small steps.
var geometryEncoding = ParquetEncoding{Delta: []string{ColArc}}

// WriteArcGeometry writes the arc geometry table of g to path with meta
// as its schema metadata, in batches of at most WithBatchRows rows: to a
// temporary, renamed to path once complete, so a failure leaves whatever
// was there before. Arcs without points have no row. O(M + points).
func WriteArcGeometry(path string, g ArcGeometry, meta map[string]string, opts ...Option) (FileInfo, error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return FileInfo{}, err
	}
	if err := CheckMeta(meta); err != nil {
		return FileInfo{}, err
	}
	if err := CheckCRSMeta(meta); err != nil {
		return FileInfo{}, err
	}
	if err := g.check(); err != nil {
		return FileInfo{}, err
	}
	schema := ArcGeometrySchema(meta)
	pending, err := writeTemp(path, schema, geometryEncoding, cfg, func(emit func(arrow.RecordBatch) error) error {
		return emitArcGeometry(g, schema, cfg, emit)
	})
	if err != nil {
		return FileInfo{}, err
	}
	defer pending.file.Abort()
	if err := pending.file.Commit(); err != nil {
		return FileInfo{}, fmt.Errorf("tables: %w", err)
	}
	return pending.info, nil
}

// maxBatchPoints bounds the points of one batch: a list array's offsets
// are int32.
const maxBatchPoints = math.MaxInt32

// emitArcGeometry hands emit the rows of g in batches of at most
// cfg.BatchRows rows and maxBatchPoints points.
func emitArcGeometry(g ArcGeometry, schema *arrow.Schema, cfg Config, emit func(arrow.RecordBatch) error) error {
	arcs := make([]int32, 0, min(cfg.BatchRows, g.Arcs()))
	flush := func() error {
		if len(arcs) == 0 {
			return nil
		}
		rec := geometryRecord(g, arcs, schema, cfg.Mem)
		arcs = arcs[:0]
		err := emit(rec)
		rec.Release()
		return err
	}
	var points int64
	for a := range g.Arcs() {
		k := g.Offsets[a+1] - g.Offsets[a]
		if k == 0 {
			continue
		}
		if len(arcs) == cfg.BatchRows || points+k > maxBatchPoints {
			if err := flush(); err != nil {
				return err
			}
			points = 0
		}
		arcs = append(arcs, int32(a))
		points += k
	}
	return flush()
}

// geometryRecord is the record batch of the given arcs of g: their
// numbers, and their points as lists into one buffer each of longitudes
// and latitudes.
func geometryRecord(g ArcGeometry, arcs []int32, schema *arrow.Schema, mem memory.Allocator) arrow.RecordBatch {
	offBuf, offsets := arrowslices.Int32Buffer(mem, len(arcs)+1)
	defer offBuf.Release()
	var x, y []int32
	offsets[0] = 0
	for i, a := range arcs {
		px, py := g.Points(int(a))
		x, y = append(x, px...), append(y, py...)
		offsets[i+1] = int32(len(x))
	}
	arcCol := arrowslices.WrapInt32(arcs)
	return arrowslices.NewRecord(schema, len(arcs), arcCol,
		pointList(schema.Field(1).Type, offBuf, len(arcs), degreesArray(mem, x)),
		pointList(schema.Field(2).Type, offBuf, len(arcs), degreesArray(mem, y)))
}

// pointList is a list array of rows lists over values, bounded by the
// int32 offsets in offBuf. It takes its own references and releases
// values'.
func pointList(t arrow.DataType, offBuf *memory.Buffer, rows int, values arrow.Array) arrow.Array {
	defer values.Release()
	data := array.NewData(t, rows, []*memory.Buffer{nil, offBuf}, []arrow.ArrayData{values.Data()}, 0, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// ReadArcGeometry reads the arc geometry table at path, in either
// format, for a graph of m arcs, checking what WriteArcGeometry ensures:
// arcs in increasing order within 0..m-1, each with as many latitudes as
// longitudes and at least one, no nulls, every point a longitude and
// latitude. The result has Offsets for all m arcs. O(m + points).
func ReadArcGeometry(path string, m int, opts ...Option) (g ArcGeometry, err error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return ArcGeometry{}, err
	}
	if m < 0 || m > math.MaxInt32 {
		return ArcGeometry{}, fmt.Errorf("tables: arc geometry for %d arcs", m)
	}
	defer RecoverInto(&err, path)
	tr, err := OpenTable(path, cfg)
	if err != nil {
		return ArcGeometry{}, err
	}
	defer tr.Close()
	idx, err := ColumnIndices(tr.schema, ArcGeometrySchema(nil).Fields())
	if err != nil {
		return ArcGeometry{}, fmt.Errorf("%w (in %s)", err, path)
	}
	g.Offsets = make([]int64, m+1) // counts at a+1, summed at the end
	last := int64(-1)
	err = tr.Scan(func(rec arrow.RecordBatch) error {
		if err := NoNulls(rec, idx...); err != nil {
			return err
		}
		arcs := rec.Column(idx[0]).(*array.Int32).Int32Values()
		lon, lat := rec.Column(idx[1]).(*array.List), rec.Column(idx[2]).(*array.List)
		lonValues, latValues := lon.ListValues().(*array.Float64), lat.ListValues().(*array.Float64)
		if lonValues.NullN() > 0 || latValues.NullN() > 0 {
			return errors.New("tables: a point of the arc geometry is null")
		}
		for i, a := range arcs {
			if int64(a) <= last || int(a) >= m {
				return fmt.Errorf("tables: arc geometry row of arc %d after arc %d, for %d arcs", a, last, m)
			}
			last = int64(a)
			lo, hi := lon.ValueOffsets(i)
			latLo, latHi := lat.ValueOffsets(i)
			if hi-lo != latHi-latLo || hi == lo {
				return fmt.Errorf("tables: arc %d has %d longitudes and %d latitudes", a, hi-lo, latHi-latLo)
			}
			at := int64(len(g.X))
			g.X = append(g.X, make([]int32, hi-lo)...)
			g.Y = append(g.Y, make([]int32, hi-lo)...)
			if err := unitsFromDegrees(g.X[at:], lonValues.Float64Values()[lo:hi], ColLon, at); err != nil {
				return err
			}
			if err := unitsFromDegrees(g.Y[at:], latValues.Float64Values()[latLo:latHi], ColLat, at); err != nil {
				return err
			}
			g.Offsets[a+1] = hi - lo
		}
		return nil
	})
	if err != nil {
		return ArcGeometry{}, err
	}
	for a := range m {
		g.Offsets[a+1] += g.Offsets[a]
	}
	if g.X == nil {
		g.X, g.Y = []int32{}, []int32{}
	}
	return g, nil
}
