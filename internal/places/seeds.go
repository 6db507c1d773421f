package places

import (
	"github.com/pathflow/pathflow/internal/snap"
)

// Seeds are the vertices a table of places is computed between: Sources,
// every vertex an origin's trip can start toward, in the order the
// origins first name them; Targets, every vertex a destination's trip can
// come from, likewise. Each is listed once.
type Seeds struct {
	Sources, Targets []int32
	// sourceAt and targetAt give each seed vertex's index in Sources and
	// Targets.
	sourceAt, targetAt map[int32]int32
}

// SeedsOf collects the seeds of snapped origins and destinations. O(places).
func SeedsOf(origins, destinations []snap.Place) *Seeds {
	s := &Seeds{sourceAt: map[int32]int32{}, targetAt: map[int32]int32{}}
	for _, p := range origins {
		for _, seed := range p.Out {
			if _, ok := s.sourceAt[seed.Vertex]; !ok {
				s.sourceAt[seed.Vertex] = int32(len(s.Sources))
				s.Sources = append(s.Sources, seed.Vertex)
			}
		}
	}
	for _, q := range destinations {
		for _, seed := range q.In {
			if _, ok := s.targetAt[seed.Vertex]; !ok {
				s.targetAt[seed.Vertex] = int32(len(s.Targets))
				s.Targets = append(s.Targets, seed.Vertex)
			}
		}
	}
	return s
}
