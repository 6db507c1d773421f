package snap

import (
	"cmp"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hugepages"
	"github.com/pathflow/pathflow/internal/tables"
)

// twins returns, for every arc, the arc that runs the same stretch of road
// the other way, or -1: twin[a] = b when b goes from a's head to a's tail
// and b's intermediate points are a's in reverse order. Arcs pair at most
// once, each with the lowest-numbered candidate left, so parallel arcs of
// different geometry stay apart and the answer does not depend on
// anything but the arc order. O(M log M) to group the arcs by unordered
// end pair, then quadratic only within a group (a handful of arcs).
func twins(edges *graph.EdgeList, geometry tables.ArcGeometry) []int32 {
	m := edges.M()
	type keyed struct {
		ends uint64 // the smaller end in the high half, the larger in the low
		arc  int32
	}
	arcs := hugepages.Make[keyed](m)
	for a := range m {
		u, v := uint32(edges.Src[a]), uint32(edges.Dst[a])
		arcs[a] = keyed{ends: uint64(min(u, v))<<32 | uint64(max(u, v)), arc: int32(a)}
	}
	slices.SortFunc(arcs, func(x, y keyed) int {
		return cmp.Or(cmp.Compare(x.ends, y.ends), cmp.Compare(x.arc, y.arc))
	})
	twin := hugepages.Make[int32](m)
	for a := range twin {
		twin[a] = -1
	}
	for lo := 0; lo < m; {
		hi := lo + 1
		for hi < m && arcs[hi].ends == arcs[lo].ends {
			hi++
		}
		for i := lo; i < hi; i++ {
			a := arcs[i].arc
			if twin[a] >= 0 {
				continue
			}
			for j := i + 1; j < hi; j++ {
				b := arcs[j].arc
				if twin[b] < 0 && edges.Src[b] == edges.Dst[a] && edges.Dst[b] == edges.Src[a] && reversedGeometry(geometry, a, b) {
					twin[a], twin[b] = b, a
					break
				}
			}
		}
		lo = hi
	}
	return twin
}

// reversedGeometry reports whether the intermediate points of arc b are
// those of arc a in reverse order; with no geometry every arc is straight.
func reversedGeometry(geometry tables.ArcGeometry, a, b int32) bool {
	if len(geometry.Offsets) == 0 {
		return true
	}
	ax, ay := geometry.Points(int(a))
	bx, by := geometry.Points(int(b))
	if len(ax) != len(bx) {
		return false
	}
	for k, last := 0, len(ax)-1; k <= last; k++ {
		if ax[k] != bx[last-k] || ay[k] != by[last-k] {
			return false
		}
	}
	return true
}
