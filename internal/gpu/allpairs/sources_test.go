package allpairs

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// randomBounds returns parts+1 ascending bounds from 0, some parts empty.
func randomBounds(r *rand.Rand, parts int) []int64 {
	b := make([]int64, parts+1)
	for p := range parts {
		size := int64(0)
		if r.IntN(5) != 0 {
			size = 1 + r.Int64N(200)
		}
		b[p+1] = b[p] + size
	}
	return b
}

func TestSplitSources(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 31))
	for round := range 500 {
		parts := 1 + r.IntN(8)
		bounds := randomBounds(r, parts)
		rows := bounds[parts]
		if rows == 0 {
			continue
		}
		sources := make([]int32, r.IntN(300))
		for i := range sources {
			if r.IntN(3) == 0 && i > 0 {
				sources[i] = sources[i-1] // runs in one part
			} else {
				sources[i] = int32(r.Int64N(rows))
			}
		}
		what := fmt.Sprintf("round %d: bounds %v", round, bounds)
		spans := splitSources(sources, bounds)
		if len(sources) == 0 && len(spans) != 0 {
			t.Fatalf("%s: %d spans of no sources", what, len(spans))
		}
		var joined []int32
		for k, s := range spans {
			if len(s.sources) == 0 {
				t.Fatalf("%s: span %d is empty", what, k)
			}
			if s.first != len(joined) {
				t.Fatalf("%s: span %d starts at %d, want position %d", what, k, s.first, len(joined))
			}
			if s.part < 0 || s.part >= parts {
				t.Fatalf("%s: span %d in part %d of %d", what, k, s.part, parts)
			}
			for _, v := range s.sources {
				if int64(v) < bounds[s.part] || int64(v) >= bounds[s.part+1] {
					t.Fatalf("%s: span %d of part %d holds source %d", what, k, s.part, v)
				}
			}
			if k > 0 && spans[k-1].part == s.part {
				t.Fatalf("%s: spans %d and %d both in part %d", what, k-1, k, s.part)
			}
			// Spans share the request's memory.
			if &s.sources[0] != &sources[s.first] {
				t.Fatalf("%s: span %d does not alias sources[%d]", what, k, s.first)
			}
			joined = append(joined, s.sources...)
		}
		if !slices.Equal(joined, sources) {
			t.Fatalf("%s: spans join to %v, want %v", what, joined, sources)
		}

		// spansOf: each part's spans, in request order, and all of them.
		count := 0
		for p := range parts {
			mine := spansOf(spans, p)
			count += len(mine)
			for k, s := range mine {
				if s.part != p {
					t.Fatalf("%s: spansOf(%d) returned a span of part %d", what, p, s.part)
				}
				if k > 0 && s.first <= mine[k-1].first {
					t.Fatalf("%s: spansOf(%d) out of request order: %d after %d", what, p, s.first, mine[k-1].first)
				}
			}
		}
		if count != len(spans) {
			t.Fatalf("%s: the parts' spans number %d, want %d", what, count, len(spans))
		}
		if got := spansOf(spans, parts); len(got) != 0 {
			t.Fatalf("%s: %d spans of the part past the end", what, len(got))
		}
	}
}

func TestSplitSourcesExample(t *testing.T) {
	// Parts [0,4) [4,4) [4,10): the empty part gets nothing.
	spans := splitSources([]int32{0, 3, 4, 9, 1, 5, 5}, []int64{0, 4, 4, 10})
	want := []sourceSpan{
		{part: 0, first: 0, sources: []int32{0, 3}},
		{part: 2, first: 2, sources: []int32{4, 9}},
		{part: 0, first: 4, sources: []int32{1}},
		{part: 2, first: 5, sources: []int32{5, 5}},
	}
	if !reflect.DeepEqual(spans, want) {
		t.Fatalf("spans %+v, want %+v", spans, want)
	}
	if got := spansOf(spans, 2); len(got) != 2 || got[0].first != 2 || got[1].first != 5 {
		t.Fatalf("spansOf(2) = %+v", got)
	}
	if got := spansOf(spans, 1); len(got) != 0 {
		t.Fatalf("spansOf(1) = %+v, want none", got)
	}
}
