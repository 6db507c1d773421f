package graph

import (
	"fmt"
	"math"
)

// A search that reports a second metric along its paths (a route's length
// when the weight is its travel time) must say which shortest path it
// summed: where several paths tie on the weight, their metrics may differ,
// and every algorithm must pick the same one. pathflow picks the path that
// is shortest by (weight, metric) lexicographically, which every
// label-setting search, contraction hierarchy and GPU kernel can find the
// same way: each arc gets one int64 key, weight << 32 | metric, and the
// algorithms run on the keys as on weights. A key sum is the weight sum
// shifted, plus the metric sum, so comparing sums compares (weight,
// metric) pairs as long as the chosen path's metric stays below 2^32 and
// its weight below 2^30 (the hierarchy's "infinity" is 2^62). MetricKeys
// refuses arcs past those limits; KeyBound.Check proves, cell by cell,
// that no chosen path went past them.

// keyShift is the place of the weight in a key: the metric has the 32 bits
// below it.
const keyShift = 32

// metricMask selects a key's metric.
const metricMask = 1<<keyShift - 1

// MaxKeyedWeight and MaxKeyedMetric are the largest arc weight and metric
// a key holds: weights below 2^30 keep every key (and the sum of two keys
// below the hierarchy's infinity) under 2^62, and metrics below 2^31 keep
// one arc's metric from reaching into the weight.
const (
	MaxKeyedWeight = 1<<30 - 1
	MaxKeyedMetric = 1<<31 - 1
)

// MaxKeyedDistance is the largest path weight a key sum represents
// exactly: past it a sum nears the hierarchy's infinity (and a shortcut
// too heavy for a key, OverlongKey, weighs just past it).
const MaxKeyedDistance = 1<<30 - 2

// OverlongKey is the key of a contraction hierarchy's shortcut too heavy
// for one (weight above MaxKeyedWeight): one below the hierarchy's
// infinity (1 << 62), so that any path through it either reaches infinity
// or reads a weight past MaxKeyedDistance, and KeyBound.Check refuses it,
// while two of it still sum within int64.
const OverlongKey = 1<<62 - 1

// Key returns the key of an arc of weight w and metric m: w << 32 | m.
func Key(w, m int32) int64 { return int64(w)<<keyShift | int64(m) }

// SplitKey returns the weight and the metric of a key sum.
func SplitKey(key int64) (weight, metric int64) { return key >> keyShift, key & metricMask }

// KeyBound is what a graph's arcs tell about the metric of any path: with
// every arc of positive weight holding at most Ratio metric units per
// weight unit, a path of weight W has a metric of at most Ratio * W plus
// ZeroWeight, the metric of the arcs of weight zero (each used once on a
// shortest path).
type KeyBound struct {
	Ratio      float64
	ZeroWeight int64
}

// MetricKeys returns the arc keys of weights and metric (Key, one per
// arc) and the graph's KeyBound, refusing what MetricBound refuses. O(m).
func MetricKeys(weights, metric []int32) ([]int64, KeyBound, error) {
	b, err := MetricBound(weights, metric)
	if err != nil {
		return nil, KeyBound{}, err
	}
	keys := make([]int64, len(weights))
	for a, w := range weights {
		keys[a] = Key(w, metric[a])
	}
	return keys, b, nil
}

// MetricBound checks that every arc fits a key and returns the graph's
// KeyBound, without making the keys (for a caller whose queries read keys
// made elsewhere, a hierarchy's). It refuses a negative weight or metric,
// a weight above MaxKeyedWeight and a metric above MaxKeyedMetric. O(m).
func MetricBound(weights, metric []int32) (KeyBound, error) {
	if len(weights) != len(metric) {
		return KeyBound{}, fmt.Errorf("graph: %d weights and %d metric values", len(weights), len(metric))
	}
	var b KeyBound
	for a, w := range weights {
		m := metric[a]
		switch {
		case w < 0 || w > MaxKeyedWeight:
			return KeyBound{}, fmt.Errorf("graph: arc %d has weight %d; a search that reports a metric takes weights 0..%d", a, w, MaxKeyedWeight)
		case m < 0:
			return KeyBound{}, fmt.Errorf("graph: arc %d has metric %d; metrics must be >= 0", a, m)
		case w == 0:
			b.ZeroWeight += int64(m)
		default:
			b.Ratio = math.Max(b.Ratio, float64(m)/float64(w))
		}
	}
	return b, nil
}

// metricLimit is the metric a key sum holds exactly, with a margin for
// the rounding of Ratio * W in float64.
const metricLimit = float64(metricMask) * (1 - 1e-9)

// Check proves that a key sum, found as the smallest over some set of
// paths, is the (weight, metric) of the lexicographically shortest one:
// the sum's weight W is at least the shortest weight (a carry from the
// metric only adds to it), so the best path's metric is at most
// Ratio * W + ZeroWeight, and below 2^32 nothing carried. O(1).
func (b KeyBound) Check(key int64) error {
	w, _ := SplitKey(key)
	if key < 0 || w > MaxKeyedDistance {
		return fmt.Errorf("graph: a path weighs %d or more; a search that reports a metric handles path weights up to %d", w, MaxKeyedDistance)
	}
	if b.Ratio*float64(w)+float64(b.ZeroWeight) >= metricLimit {
		return fmt.Errorf("graph: a path of weight %d may carry a metric of %.0f (up to %.4g per weight unit), past the %d a search that reports a metric sums exactly", w, b.Ratio*float64(w)+float64(b.ZeroWeight), b.Ratio, int64(metricMask))
	}
	return nil
}

// SimplePathBound returns a bound on the weight of any path that visits
// no vertex twice (as every shortest path over non-negative weights can):
// the sum over vertices of their heaviest out-arc. Where it is at most
// MaxKeyedDistance, no shortest path is too long for a key. O(m).
func (c *CSR) SimplePathBound() int64 {
	var sum int64
	for u := range c.N {
		heaviest := int32(0)
		for _, w := range c.Weights[c.Offsets[u]:c.Offsets[u+1]] {
			heaviest = max(heaviest, w)
		}
		sum += int64(heaviest)
	}
	return sum
}
