package shortest

import (
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
)

// ValidateCSR checks the structure every algorithm relies on, so that bad
// input gives an error instead of an index panic. O(n + m), or O(1) for
// arrays recorded valid when they were written (graph.Recorded), as a
// mapped ingest output's are.
func ValidateCSR(g *graph.CSR) error {
	if g == nil {
		return errors.New("cpu: nil graph")
	}
	if g.N < 0 {
		return fmt.Errorf("cpu: negative vertex count %d", g.N)
	}
	if len(g.Offsets) != int(g.N)+1 {
		return fmt.Errorf("cpu: %d offsets for %d vertices, want %d", len(g.Offsets), g.N, int(g.N)+1)
	}
	if g.Offsets[0] != 0 || g.Offsets[g.N] != int64(len(g.Targets)) || len(g.Weights) != len(g.Targets) {
		return fmt.Errorf("cpu: offsets span [%d, %d] for %d targets and %d weights",
			g.Offsets[0], g.Offsets[g.N], len(g.Targets), len(g.Weights))
	}
	if r, ok := g.Recorded(); ok && r.Valid {
		return nil // checked when the arrays were written (graph.Recorded)
	}
	for u := int32(0); u < g.N; u++ {
		if g.Offsets[u] > g.Offsets[u+1] {
			return fmt.Errorf("cpu: offsets decrease at vertex %d", u)
		}
	}
	for i, v := range g.Targets {
		if v < 0 || v >= g.N {
			return fmt.Errorf("cpu: arc %d targets vertex %d outside 0..%d", i, v, g.N-1)
		}
	}
	return nil
}

// ValidateSource checks that source is a vertex of a graph of n vertices.
func ValidateSource(n, source int32) error {
	if source < 0 || source >= n {
		return fmt.Errorf("cpu: source %d outside 0..%d", source, n-1)
	}
	return nil
}

// fewSources is the most sources ValidateSources checks for repeats with
// a set of their own rather than a bit per vertex, so that a short list
// costs nothing proportional to the graph.
const fewSources = 1 << 12

// ValidateSources checks that every source is a vertex of a graph of n
// vertices and that none repeats. O(k) time for k <= fewSources sources,
// else O(n / 64 + k) time and n bits.
func ValidateSources(n int32, sources []int32) error {
	if len(sources) <= fewSources {
		seen := make(map[int32]struct{}, len(sources))
		for i, s := range sources {
			if err := ValidateSource(n, s); err != nil {
				return err
			}
			if _, ok := seen[s]; ok {
				return fmt.Errorf("cpu: source %d repeats at position %d", s, i)
			}
			seen[s] = struct{}{}
		}
		return nil
	}
	seen := make([]uint64, (int(n)+63)/64)
	for i, s := range sources {
		if err := ValidateSource(n, s); err != nil {
			return err
		}
		if seen[s/64]&(1<<(s%64)) != 0 {
			return fmt.Errorf("cpu: source %d repeats at position %d", s, i)
		}
		seen[s/64] |= 1 << (s % 64)
	}
	return nil
}

// ValidateEdgeList wraps EdgeList.Validate with the package prefix.
func ValidateEdgeList(e *graph.EdgeList) error {
	if e == nil {
		return errors.New("cpu: nil graph")
	}
	if err := e.Validate(); err != nil {
		return fmt.Errorf("cpu: %w", err)
	}
	return nil
}
