package allpairs

import (
	"sort"
)

// sourceSpan is a run of consecutive positions of a request whose sources
// are rows of one part of a matrix: a device's slab, or a stripe of an
// out-of-core matrix.
type sourceSpan struct {
	part int
	// first is the position in the request of sources[0].
	first   int
	sources []int32
}

// splitSources cuts sources into maximal spans whose rows lie in one part,
// part p holding rows bounds[p] .. bounds[p+1]-1 (bounds ascending, from
// 0). Spans are in request order and share sources' memory.
func splitSources(sources []int32, bounds []int64) []sourceSpan {
	var spans []sourceSpan
	for i, s := range sources {
		p := sort.Search(len(bounds)-1, func(p int) bool { return bounds[p+1] > int64(s) })
		if k := len(spans) - 1; k >= 0 && spans[k].part == p {
			spans[k].sources = sources[spans[k].first : i+1]
			continue
		}
		spans = append(spans, sourceSpan{part: p, first: i, sources: sources[i : i+1]})
	}
	return spans
}

// spansOf returns the spans of part p, in request order.
func spansOf(spans []sourceSpan, p int) []sourceSpan {
	var out []sourceSpan
	for _, s := range spans {
		if s.part == p {
			out = append(out, s)
		}
	}
	return out
}
