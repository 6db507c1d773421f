package hierarchy

// Table returns the distances from every source to every target (original
// ids) as a row-major len(sources) x len(targets) matrix, paths.Unreachable
// where there is no path, by the bucket algorithm: a backward upward
// search from each target leaves (target, distance) in a bucket at every
// vertex it settles (Buckets), then a forward upward search from each
// source scans the buckets of the vertices it settles. Both phases run on
// workers goroutines (0: all cores). O((|S| + |T|) * search space + bucket
// scans), about |S| * |T| on road networks.
func (h *Hierarchy) Table(sources, targets []int32, workers int) ([]int64, error) {
	b := NewBuckets(h)
	if err := b.Fill(targets, workers); err != nil {
		return nil, err
	}
	out := make([]int64, len(sources)*len(targets))
	if err := b.Rows(sources, out, workers); err != nil {
		return nil, err
	}
	return out, nil
}
