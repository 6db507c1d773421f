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
// Two structures hold the segments. A uniform grid of cells of about one
// segment each over the network's extent (grid.go) lists every segment
// in every cell its box meets; a search reads the point's cell and the
// two rings around it, stopping as soon as everything outside the cells
// read lies farther than the best segment found, which settles almost
// every point among roads from a few consecutive runs of entries. The
// others, points hundreds of metres or more from any road, go on in the
// package's own R-tree (tree.go), packed once in Hilbert order and
// searched depth first with branch and bound, starting from the best of
// the segments of the nearest cell that holds any, so that the tree
// opens only the nodes about as near as the answer. Both read the same
// distances with the same tie rule, and the answer is the one a scan of
// every segment gives (TestDelawareAgainstScan, TestRandomAgainstScan).
//
// The tree is the package's own rather than github.com/tidwall/rtree's
// RTreeG and its best-first Nearby search, measured again on 2026-11-27
// (2-core Xeon VM, Delaware's 326,690 segments, points uniform in its
// bounding box, one goroutine, no limit): RTreeG takes 10.3-10.9 us a
// point (BenchmarkDelawareRTreeG; its search queues every entry of every
// node it opens, sifting each into a heap), the grid and tree here 1.0-1.1
// us (BenchmarkDelawareSearch), and the 1 s target for the index and a
// million points on 2 cores leaves under 2 us a point for the search and
// the place together. SnapAll searches the points in Z order over the
// extent, which keeps the cells and nodes in cache from one point to the
// next, and writes the places in the points' own order.
package snap
