package pipeline

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pathflow/pathflow/internal/config"
)

// ParseSources turns the compute.sources key into dense vertex ids of a
// graph with n vertices. Each item is a vertex ("17"), an inclusive range
// ("0-99") or "all". Duplicates are kept once, in first-seen order.
func ParseSources(key string, items []string, n int32) ([]int32, error) {
	return parseVertices(key, "source", items, n)
}

// ParseTargets turns the compute.targets key into dense vertex ids, as
// ParseSources does; nil stands for "all" (every vertex in id order), the
// common case, which needs no list.
func ParseTargets(key string, items []string, n int32) ([]int32, error) {
	if len(items) == 1 && strings.TrimSpace(items[0]) == "all" {
		return nil, nil
	}
	return parseVertices(key, "target", items, n)
}

func parseVertices(key, noun string, items []string, n int32) ([]int32, error) {
	if len(items) == 0 {
		return nil, config.Errorf(key, "needs at least one %s", noun)
	}
	seen := make(map[int32]bool)
	var out []int32
	add := func(v int64) error {
		if v < 0 || v >= int64(n) {
			return config.Errorf(key, "%s %d is outside 0..%d (the graph has %d vertices)", noun, v, n-1, n)
		}
		if !seen[int32(v)] {
			seen[int32(v)] = true
			out = append(out, int32(v))
		}
		return nil
	}
	for _, item := range items {
		item = strings.TrimSpace(item)
		if item == "all" {
			for v := int64(0); v < int64(n); v++ {
				if err := add(v); err != nil {
					return nil, err
				}
			}
			continue
		}
		loText, hiText, isRange := strings.Cut(item, "-")
		lo, err := strconv.ParseInt(loText, 10, 64)
		if err != nil {
			return nil, config.Errorf(key, "%q is not a vertex id, a range lo-hi or all", item)
		}
		hi := lo
		if isRange {
			if hi, err = strconv.ParseInt(hiText, 10, 64); err != nil || hi < lo {
				return nil, config.Errorf(key, "%q is not a range lo-hi with lo <= hi", item)
			}
		}
		for v := lo; v <= hi; v++ {
			if err := add(v); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// ParsePairs turns the compute.paths key, items written "source-target",
// into pairs of dense vertex ids.
func ParsePairs(key string, items []string, n int32) ([][2]int32, error) {
	var out [][2]int32
	for _, item := range items {
		sText, tText, ok := strings.Cut(strings.TrimSpace(item), "-")
		s, err1 := strconv.ParseInt(sText, 10, 32)
		t, err2 := strconv.ParseInt(tText, 10, 32)
		if !ok || err1 != nil || err2 != nil {
			return nil, config.Errorf(key, "%q is not a pair source-target", item)
		}
		if s < 0 || s >= int64(n) || t < 0 || t >= int64(n) {
			return nil, config.Errorf(key, "pair %q is outside 0..%d", item, n-1)
		}
		out = append(out, [2]int32{int32(s), int32(t)})
	}
	return out, nil
}

// sourcesSummary describes a source list briefly for logs.
func sourcesSummary(sources []int32) string {
	if len(sources) <= 4 {
		return fmt.Sprint(sources)
	}
	return fmt.Sprintf("%d sources (%d..%d)", len(sources), sources[0], sources[len(sources)-1])
}
