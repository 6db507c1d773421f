package places

import (
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/snap"
)

// noArcMetric is the arcs' metric of places made by hand, whose stretches
// have no length: their pieces carry no metric, and the cells all of it.
var noArcMetric = []int32{}

// tableAnswer runs a Combiner over the seed cells dist and metric
// (indexed by seed vertex) and returns its answers for origin 0.
func tableAnswer(t *testing.T, origins, destinations []snap.Place, arcMetric []int32, dist, metric [][]int64) (weights, metrics []int64) {
	t.Helper()
	seeds := SeedsOf(origins, destinations)
	c := NewCombiner(origins, destinations, seeds, arcMetric, func(i int, row, m []int64) error {
		if i == 0 {
			weights, metrics = row, m
		}
		return nil
	}, 1)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	rows := &results.Rows{Sources: seeds.Sources, Width: len(seeds.Targets)}
	for _, s := range seeds.Sources {
		for _, v := range seeds.Targets {
			rows.Dist64 = append(rows.Dist64, dist[s][v])
			if arcMetric != nil {
				rows.Metric64 = append(rows.Metric64, metric[s][v])
			}
		}
	}
	if err := c.Put(rows); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return weights, metrics
}

// tripAnswer runs a PairCombiner over the seed cells dist and metric and
// returns its answers.
func tripAnswer(t *testing.T, origins, destinations []snap.Place, arcMetric []int32, dist, metric [][]int64) Answers {
	t.Helper()
	seeds := PairSeedsOf(origins, destinations)
	c := NewPairCombiner(origins, destinations, seeds, arcMetric, 1)
	rows := &results.Rows{Sources: seeds.Sources, Offsets: []int{0}}
	for k, s := range seeds.Sources {
		for _, v := range seeds.Targets[k] {
			rows.Dist64 = append(rows.Dist64, dist[s][v])
			if arcMetric != nil {
				rows.Metric64 = append(rows.Metric64, metric[s][v])
			}
		}
		rows.Offsets = append(rows.Offsets, len(rows.Dist64))
	}
	if len(seeds.Sources) > 0 {
		if err := c.Put(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return c.Answers()
}

// TestCombinersBreakWeightTiesByMetric gives an origin two seeds whose
// trips to the destination tie on the weight (5+10 and 3+12) and differ
// in the metric: both combiners report the weight and the smaller
// metric, whichever seed pair comes first, and without a metric the
// weight alone.
func TestCombinersBreakWeightTiesByMetric(t *testing.T) {
	origin := snap.Place{OK: true, Arc: 1, Out: []snap.Seed{{Vertex: 0, Weight: 5}, {Vertex: 1, Weight: 3}}, In: []snap.Seed{{Vertex: 0}}}
	destination := snap.Place{OK: true, Arc: 2, Out: []snap.Seed{{Vertex: 2}}, In: []snap.Seed{{Vertex: 2, Weight: 0}}}
	none := paths.Unreachable
	dist := [][]int64{{0, none, 10}, {none, 0, 12}, {none, none, 0}}
	for _, tc := range []struct {
		name       string
		metric     [][]int64
		wantMetric int64
	}{
		{"the second pair lighter", [][]int64{{0, 0, 100}, {0, 0, 50}, {0, 0, 0}}, 50},
		{"the first pair lighter", [][]int64{{0, 0, 40}, {0, 0, 70}, {0, 0, 0}}, 40},
	} {
		os, ds := []snap.Place{origin}, []snap.Place{destination}
		w, m := tableAnswer(t, os, ds, noArcMetric, dist, tc.metric)
		if w[0] != 15 || m[0] != tc.wantMetric {
			t.Errorf("%s: table (%d, %d), want (15, %d)", tc.name, w[0], m[0], tc.wantMetric)
		}
		a := tripAnswer(t, os, ds, noArcMetric, dist, tc.metric)
		if a.Weights[0] != 15 || a.Metrics[0] != tc.wantMetric {
			t.Errorf("%s: trip (%d, %d), want (15, %d)", tc.name, a.Weights[0], a.Metrics[0], tc.wantMetric)
		}
	}
	w, m := tableAnswer(t, []snap.Place{origin}, []snap.Place{destination}, nil, dist, nil)
	if w[0] != 15 || m != nil {
		t.Errorf("without a metric: %v, %v", w, m)
	}
	if a := tripAnswer(t, []snap.Place{origin}, []snap.Place{destination}, nil, dist, nil); a.Weights[0] != 15 || a.Metrics != nil {
		t.Errorf("trip without a metric: %+v", a)
	}
}

// TestMetricCombinersAgainstBruteForce answers random places over a
// random matrix of small weights, so that many seed pairs tie on the
// weight, and checks both combiners against the lexicographic minimum of
// (weight, metric) over the seed pairs worked out directly.
func TestMetricCombinersAgainstBruteForce(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 38))
		n := 2 + rng.IntN(12)
		dist, metric := make([][]int64, n), make([][]int64, n)
		for u := range dist {
			dist[u], metric[u] = make([]int64, n), make([]int64, n)
			for v := range dist[u] {
				dist[u][v], metric[u][v] = int64(rng.IntN(4)), int64(rng.IntN(1000))
				if rng.IntN(6) == 0 {
					dist[u][v] = paths.Unreachable
				}
			}
		}
		count := 1 + rng.IntN(20)
		origins, destinations := randomPlaces(rng, count, n), randomPlaces(rng, count, n)
		for _, ps := range [][]snap.Place{origins, destinations} {
			for i := range ps {
				for k := range ps[i].Out {
					ps[i].Out[k].Weight %= 3
				}
				for k := range ps[i].In {
					ps[i].In[k].Weight %= 3
				}
			}
		}
		want := func(p, q *snap.Place) (int64, int64) {
			bw, bm := NoPath, int64(0)
			if !p.OK || !q.OK {
				return bw, bm
			}
			for _, s := range p.Out {
				for _, tt := range q.In {
					if d := dist[s.Vertex][tt.Vertex]; d != paths.Unreachable {
						w, m := s.Weight+d+tt.Weight, metric[s.Vertex][tt.Vertex]
						if bw == NoPath || w < bw || (w == bw && m < bm) {
							bw, bm = w, m
						}
					}
				}
			}
			return bw, bm
		}
		for i := range origins {
			// The table's origin i alone, so that its row is the first.
			w, m := tableAnswer(t, origins[i:i+1], destinations, noArcMetric, dist, metric)
			for j := range destinations {
				ww, wm := want(&origins[i], &destinations[j])
				if w[j] != ww || (ww != NoPath && m[j] != wm) {
					t.Fatalf("seed %d cell %d,%d: (%d, %d), want (%d, %d)", seed, i, j, w[j], m[j], ww, wm)
				}
			}
		}
		a := tripAnswer(t, origins, destinations, noArcMetric, dist, metric)
		for i := range origins {
			ww, wm := want(&origins[i], &destinations[i])
			if a.Weights[i] != ww || (ww != NoPath && a.Metrics[i] != wm) {
				t.Fatalf("seed %d trip %d: (%d, %d), want (%d, %d)", seed, i, a.Weights[i], a.Metrics[i], ww, wm)
			}
		}
	}
}
