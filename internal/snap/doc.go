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
// distances (haversine on the mean Earth radius, as the OpenStreetMap
// ingest measures arc lengths). Longitudes do not wrap at the
// antimeridian.
//
// The spatial index is github.com/tidwall/rtree's RTreeG over the
// segments, in degrees; its best-first Nearby search takes a distance
// function, which here gives the projected distance from the point to a
// node's box (a lower bound) and to a segment (exact), so the first
// segment it yields is the nearest one.
package snap
