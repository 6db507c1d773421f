package compute

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/input"
)

// VertexNames reads the vertices compute.sources, compute.targets and
// compute.paths name: dense ids, or with compute.ids: original the input's
// own ids (DIMACS ids, SNAP original ids), and returns dense ids.
type VertexNames struct {
	IDs *input.VertexIDs
	// Original is true when the keys hold input ids.
	Original bool
}

// DenseNames reads dense ids of a graph of n vertices.
func DenseNames(n int32) VertexNames { return VertexNames{IDs: input.NewVertexIDs(n, nil)} }

// Sources turns a sources key into dense vertex ids, in the order given.
// Each item is a vertex ("17"), an inclusive range ("0-99") or "all"; an
// id is decimal digits alone (no sign). A vertex named twice, by two items
// or by overlapping ranges, is a config error naming it: each source is
// one row block of the result, and a repeated pair belongs in a pair list
// (compute.pairs), which keeps every row it lists. O(n) for "all", else
// O(items log n) plus ranges, and n bits.
func (vn VertexNames) Sources(key string, items []string) ([]int32, error) {
	return vn.list(key, "source", items)
}

// Targets reads a targets key as Sources does, a vertex named twice
// included; nil stands for "all" (every vertex in id order), the common
// case, which needs no list.
func (vn VertexNames) Targets(key string, items []string) ([]int32, error) {
	if len(items) == 1 && strings.TrimSpace(items[0]) == "all" {
		return nil, nil
	}
	return vn.list(key, "target", items)
}

// PairSeparator splits a paths item, "source:target". It is not the "-"
// of a range ("0-3"), so that an item says which of the two it is; and
// unlike "->" it needs no quoting on a command line.
const PairSeparator = ":"

// Pairs reads a paths key, items written "source:target", into pairs of
// dense vertex ids. The old form "source-target", which reads like a range
// of sources, is still accepted: LegacyPairs lists such items, for a
// warning.
func (vn VertexNames) Pairs(key string, items []string) ([][2]int32, error) {
	var out [][2]int32
	for _, item := range items {
		s, t, ok := splitPair(item)
		if !ok {
			return nil, config.Errorf(key, "%q is not a pair source%starget", item, PairSeparator)
		}
		sv, err := vn.vertex(key, "pair "+item+": source", s)
		if err != nil {
			return nil, err
		}
		tv, err := vn.vertex(key, "pair "+item+": target", t)
		if err != nil {
			return nil, err
		}
		out = append(out, [2]int32{sv, tv})
	}
	return out, nil
}

// LegacyPairs returns the items of a paths key written in the old form,
// "source-target".
func LegacyPairs(items []string) []string {
	var old []string
	for _, item := range items {
		if _, _, ok := splitPair(item); ok && !strings.Contains(item, PairSeparator) {
			old = append(old, item)
		}
	}
	return old
}

// splitPair reads "S:T", or the old "S-T", as two ids.
func splitPair(item string) (s, t int64, ok bool) {
	item = strings.TrimSpace(item)
	sText, tText, ok := strings.Cut(item, PairSeparator)
	if !ok {
		sText, tText, ok = strings.Cut(item, "-")
	}
	if !ok {
		return 0, 0, false
	}
	s, ok1 := parseID(strings.TrimSpace(sText))
	t, ok2 := parseID(strings.TrimSpace(tText))
	return s, t, ok1 && ok2
}

// parseID reads a vertex id as the vertex keys write it: decimal digits
// alone, no sign and no spaces, within int64.
func parseID(text string) (int64, bool) {
	if text == "" {
		return 0, false
	}
	for i := 0; i < len(text); i++ {
		if text[i] < '0' || text[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(text, 10, 64)
	return v, err == nil
}

// vertex resolves one id as the keys name vertices.
func (vn VertexNames) vertex(key, noun string, id int64) (int32, error) {
	if vn.Original {
		v, ok := vn.IDs.Dense(id)
		if !ok {
			return 0, config.Errorf(key, "%s %d: no vertex has that original id (%s: %s)", noun, id, KeyIDs, input.IDsOriginal)
		}
		return v, nil
	}
	n := vn.IDs.N()
	if id < 0 || id >= int64(n) {
		return 0, config.Errorf(key, "%s %d is outside 0..%d (the graph has %d dense ids; set %s: %s to name vertices by the input's ids)",
			noun, id, n-1, n, KeyIDs, input.IDsOriginal)
	}
	return int32(id), nil
}

// list reads ids, ranges and "all" into dense ids, in the order given,
// and refuses a vertex named twice.
func (vn VertexNames) list(key, noun string, items []string) ([]int32, error) {
	if len(items) == 0 {
		return nil, config.Errorf(key, "needs at least one %s", noun)
	}
	seen := make([]uint64, (int(vn.IDs.N())+63)/64)
	var out []int32
	for k, item := range items {
		lo, hi, err := vn.item(key, noun, strings.TrimSpace(item))
		if err != nil {
			return nil, err
		}
		for v := lo; v <= hi; v++ {
			if seen[v/64]&(1<<(v%64)) != 0 {
				return nil, vn.repeated(key, noun, items, k, v)
			}
			seen[v/64] |= 1 << (v % 64)
			out = append(out, v)
		}
	}
	return out, nil
}

// repeated is the error for vertex v, named again by items[k]: it names
// the vertex as the key does and the two items, by their positions.
func (vn VertexNames) repeated(key, noun string, items []string, k int, v int32) error {
	id := int64(v)
	if vn.Original {
		id = vn.IDs.Original(v)
	}
	first := k
	for j, item := range items[:k] {
		if lo, hi, err := vn.item(key, noun, strings.TrimSpace(item)); err == nil && lo <= v && v <= hi {
			first = j
			break
		}
	}
	return config.Errorf(key, "%s %d is named by item %d (%q) and again by item %d (%q): list each %s once (a pair list, %s, keeps repeated pairs)",
		noun, id, first+1, items[first], k+1, items[k], noun, KeyPairList)
}

// vertexItem is one item of a vertex list as written: all, or the ids
// first..last (equal for a single id).
type vertexItem struct {
	all, isRange bool
	first, last  int64
}

// parseVertexItem reads the syntax of one item of a vertex list, which
// needs no graph: a typo is reported before any load.
func parseVertexItem(item string) (vertexItem, error) {
	if item == "all" {
		return vertexItem{all: true}, nil
	}
	loText, hiText, isRange := strings.Cut(item, "-")
	first, ok := parseID(loText)
	if !ok {
		return vertexItem{}, fmt.Errorf("%q is not a vertex id (decimal digits, no sign), a range lo-hi or all", item)
	}
	last := first
	if isRange {
		if last, ok = parseID(hiText); !ok || last < first {
			return vertexItem{}, fmt.Errorf("%q is not a range lo-hi of vertex ids with lo <= hi", item)
		}
	}
	return vertexItem{isRange: isRange, first: first, last: last}, nil
}

// checkVertexList records in vs the first item of the vertex list key
// whose syntax is wrong.
func checkVertexList(vs *config.Values, key string, items []string) {
	for _, item := range items {
		if _, err := parseVertexItem(strings.TrimSpace(item)); err != nil {
			vs.Fail(key, "%v", err)
			return
		}
	}
}

// item reads one item of a vertex list as the dense range lo..hi.
func (vn VertexNames) item(key, noun, item string) (lo, hi int32, err error) {
	it, err := parseVertexItem(item)
	if err != nil {
		return 0, 0, config.Errorf(key, "%v", err)
	}
	if it.all {
		return 0, vn.IDs.N() - 1, nil
	}
	if it.isRange && vn.Original && !vn.IDs.Increasing() {
		return 0, 0, config.Errorf(key, "range %q: this input's original ids do not grow with the dense ids, so a range of them is not defined; list the ids", item)
	}
	if lo, err = vn.vertex(key, noun, it.first); err != nil {
		return 0, 0, err
	}
	if hi, err = vn.vertex(key, noun, it.last); err != nil {
		return 0, 0, err
	}
	return lo, hi, nil
}

// sourcesSummary describes a source list briefly for logs, in the input's
// ids.
func sourcesSummary(sources []int32, ids *input.VertexIDs) string {
	if len(sources) <= 4 {
		names := make([]int64, len(sources))
		for i, s := range sources {
			names[i] = ids.Original(s)
		}
		return fmt.Sprint(names)
	}
	return fmt.Sprintf("%d sources (%d..%d)", len(sources), ids.Original(sources[0]), ids.Original(sources[len(sources)-1]))
}
