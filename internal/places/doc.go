// Package places answers origin-destination questions about a user's
// places rather than about vertices: places snapped onto the road network
// (internal/snap) enter and leave the graph at up to two vertices each,
// part-way along an arc, and their table is written keyed by the user's
// own ids.
//
// The searches themselves are the vertex searches of every algorithm and
// backend, unchanged: a run asks them for the table between the seed
// vertices (Seeds), and a Combiner turns the seed rows into place rows,
//
//	d(p, q) = min over seeds s of p and t of q of  w(p, s) + D(s, t) + w(t, q),
//
// together with the trip that stays on the road piece both places lie on
// (snap.Direct). docs/algorithms.md, "Places", says why this form and
// what it costs.
package places
