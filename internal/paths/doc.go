// Package paths holds shortest-path results over dense int32 vertex ids and
// the checks every backend's output must pass.
//
// Parent semantics, everywhere in pathflow: Parent[v] is the vertex before v
// on a shortest path from the source; it is NoParent for the source itself
// and for every vertex the source cannot reach. An unreachable vertex has
// distance Unreachable.
package paths
