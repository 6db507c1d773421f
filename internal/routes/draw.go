package routes

import (
	"fmt"
	"math"

	"github.com/pathflow/pathflow/internal/geoparquet"
	"github.com/pathflow/pathflow/internal/graph"
)

// Drawer writes the lines of routes one after another into the WKB of a
// batch of rows (geoparquet.Rows.AppendLineIn), as WriteLine does, but
// copies what a route shares with the routes of the same source drawn
// before it in the batch. The paths of one source are branches of its
// tree: of 100,000 Delaware routes (1,000 sources x 100 targets), 85% of
// the vertices lie on a start that an earlier route of the source ran
// along. That start's points, time, length and bounding box are then one
// copy and a lookup, not an arc search, a copy and a sum per step. One
// goroutine owns a Drawer.
type Drawer struct {
	ix *Index
	l  *lineCoords
	// drawn holds, for the vertices of the routes drawn since the last
	// reset (epoch), where each one's route from the source lies in the
	// batch and what it sums to. Every entry's line is its tree path:
	// an entry is recorded only on a route whose vertices before it are
	// all entries, each the parent of the next (remember).
	drawn []drawnVertex
	epoch uint32
	// root and batch are the source and the batch the entries are of.
	root  int32
	batch int64

	// The route Route prepared, for Fill.
	vertices []int32
	shared   int     // vertices[:shared] follow entries of drawn
	arcs     []int32 // the arcs of the steps into vertices[shared:]
	points   int
}

// drawnVertex is where a route drawn before runs from the source to a
// vertex: its line's points lie in the batch's WKB at start..end (the
// vertex's own point last), and time, length and box are those of the
// route so far. parent is the vertex before, -1 for the source.
type drawnVertex struct {
	stamp           uint32
	parent          int32
	start, end      int
	timeMS, lengthM int64
	box             [4]int32
}

// NewDrawer returns a Drawer of ix's routes; the network must have vertex
// positions. O(n) memory, and on an Index's first line the encoding
// WriteLine describes.
func (ix *Index) NewDrawer() (*Drawer, error) {
	l, err := ix.lines()
	if err != nil {
		return nil, err
	}
	return &Drawer{ix: ix, l: l, drawn: make([]drawnVertex, ix.net.Edges.N), root: -1}, nil
}

// Route prepares the route through vertices for the next
// Fill, in batch (geoparquet.Rows.Batch): it returns the route's travel
// time (ms) and length (m), 0 for a metric the network lacks, and its
// number of points (LinePoints; none without vertices). A step between vertices no arc joins is
// an error. O(vertices) for the start shared with earlier routes,
// O(in-degree) a step after it.
func (d *Drawer) Route(batch int64, vertices []int32) (timeMS, lengthM int64, points int, err error) {
	d.vertices, d.arcs, d.shared, d.points = vertices, d.arcs[:0], 0, 0
	if len(vertices) == 0 {
		return 0, 0, 0, nil
	}
	if batch != d.batch || vertices[0] != d.root {
		d.reset(batch, vertices[0])
	}
	shared := 0
	if e := &d.drawn[vertices[0]]; e.stamp == d.epoch && e.parent == -1 {
		for shared = 1; shared < len(vertices); shared++ {
			if e := &d.drawn[vertices[shared]]; e.stamp != d.epoch || e.parent != vertices[shared-1] {
				break
			}
		}
		e := &d.drawn[vertices[shared-1]]
		timeMS, lengthM, points = e.timeMS, e.lengthM, (e.end-e.start)/pointBytes
	}
	d.shared = shared
	arcs := d.l.arcs
	for i := max(shared, 1); i < len(vertices); i++ {
		a := d.ix.Arc(vertices[i-1], vertices[i])
		if a == NoArc {
			return 0, 0, 0, fmt.Errorf("routes: the route steps from %d to %d, which no arc joins", vertices[i-1], vertices[i])
		}
		d.arcs = append(d.arcs, a)
		al := &arcs[a]
		timeMS += int64(al.timeMS)
		lengthM += int64(al.lengthM)
		points += int(al.points)
	}
	points += len(vertices) - shared
	d.points = points
	return timeMS, lengthM, points, nil
}

// pointBytes is one point of a line (geoparquet.Coords).
const pointBytes = 16

// reset forgets the routes drawn: they lie in another batch, or start
// elsewhere. O(1), O(n) once in 2^32 resets.
func (d *Drawer) reset(batch int64, root int32) {
	d.batch, d.root = batch, root
	d.epoch++
	if d.epoch == 0 {
		clear(d.drawn)
		d.epoch = 1
	}
}

// Fill writes the route Route prepared into batch[at:] (its points x 16
// bytes, the rest of batch being the batch's WKB before it, as
// geoparquet.Rows.AppendLineIn hands it) and returns its bounding box in
// degrees, the bytes and box WriteLine would give. O(points).
func (d *Drawer) Fill(batch []byte, at int) (geoparquet.Box, error) {
	if len(batch) != at+d.points*pointBytes {
		return geoparquet.Box{}, fmt.Errorf("routes: a route of %d points given room for %d", d.points, (len(batch)-at)/pointBytes)
	}
	vertices, shared := d.vertices, d.shared
	start, pos := at, at
	var timeMS, lengthM int64
	box := [4]int32{math.MaxInt32, math.MaxInt32, math.MinInt32, math.MinInt32}
	if shared > 0 {
		e := &d.drawn[vertices[shared-1]]
		pos += copy(batch[pos:], batch[e.start:e.end])
		timeMS, lengthM, box = e.timeMS, e.lengthM, e.box
	}
	l := d.l
	// The vertices after the shared start become entries until one is an
	// entry already: it lies on another route, so the vertices after it
	// are not on the tree path its entry records.
	remember := true
	for i := shared; i < len(vertices); i++ {
		v := vertices[i]
		parent := int32(-1)
		if i > 0 {
			parent = vertices[i-1]
			al := &l.arcs[d.arcs[i-max(shared, 1)]]
			timeMS += int64(al.timeMS)
			lengthM += int64(al.lengthM)
			if al.points > 0 {
				pos += copy(batch[pos:], l.coords(al))
				b := &al.box
				box = [4]int32{min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3])}
			}
		}
		p := &l.vertices[v]
		*(*[pointBytes]byte)(batch[pos:]) = p.coords
		pos += pointBytes
		box = [4]int32{min(box[0], p.x), min(box[1], p.y), max(box[2], p.x), max(box[3], p.y)}
		if remember {
			e := &d.drawn[v]
			if e.stamp == d.epoch {
				remember = false
				continue
			}
			*e = drawnVertex{stamp: d.epoch, parent: parent, start: start, end: pos, timeMS: timeMS, lengthM: lengthM, box: box}
		}
	}
	return geoparquet.Box{
		XMin: float64(box[0]) / graph.UnitsPerDegree, YMin: float64(box[1]) / graph.UnitsPerDegree,
		XMax: float64(box[2]) / graph.UnitsPerDegree, YMax: float64(box[3]) / graph.UnitsPerDegree,
	}, nil
}
