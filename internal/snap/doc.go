// Package snap places points given by longitude and latitude on a road
// network: each point moves to the nearest position on any arc (the
// projection onto the nearest segment of the arc's geometry), and a trip
// from or to the point enters or leaves the graph at the arc's ends with
// the weight of the piece of the arc between the position and that end.
//
// A two-way street is stored as two arcs u->v and v->u whose geometries
// are each other's reverse; the index holds each such stretch once, and a
// point on it seeds both directions. A one-way arc, and a parallel arc
// whose geometry differs, is a stretch of its own.
//
// Distances follow two rules. The nearest segment and the projection onto
// it are found in an equirectangular projection centred on the point
// (metres east and north of it), which is exact to well under a per cent
// within the few kilometres a snap spans. Lengths along an arc, and the
// distance from the point to its snapped position, are great-circle
// distances on the sphere the OpenStreetMap ingest measures arc lengths
// on (internal/earth). Longitudes do not wrap at the antimeridian.
//
// The spatial index is the package's own R-tree (tree.go), packed once in
// Hilbert order and searched depth first with branch and bound, rather
// than github.com/tidwall/rtree's RTreeG and its best-first Nearby search,
// which were measured first (BenchmarkDelawareRTreeG, 2-core Xeon VM,
// Delaware's 326,690 segments, random points in its bounding box): RTreeG
// takes about 10 us per point (its search queues every entry of every
// node it opens, sifting each into a heap) against about 2 us here on one
// core, and the 1 s target for a million points on 2 cores leaves under
// 2 us. Both build in about 0.15 s. SnapAll also searches the points in
// Hilbert order, which keeps the tree's nodes in cache from one point to
// the next.
package snap
