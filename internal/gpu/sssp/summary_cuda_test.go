//go:build cuda

package sssp_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/results"
)

// TestSummaryOnlyMatchesTheHostReduction asks the batched searches and
// the PHAST sweeps for summaries alone (results.Shape.SummaryOnly) on the
// graphs of the ch test, whole rows with and without cutoffs (and with
// sparse rows allowed, which summaries supersede), and rows narrowed to
// targets (reduced on the host): every row's summary must equal the host's
// reduction of Dijkstra's row, field for field, and whole rows must leave
// the device summarized. Launches of 5 rows (part-filled groups, several
// launches) and two contexts sharing the sources are run too.
func TestSummaryOnlyMatchesTheHostReduction(t *testing.T) {
	seed := backendtest.FreshSeed(t)
	one, two := backendtest.Default(), backendtest.Open(t, gpu.WithDevices([]int{0, 0}))
	for _, c := range chCases(t, seed) {
		if testing.Short() && !c.small {
			continue
		}
		r := rand.New(rand.NewPCG(seed, 81))
		sources, refs, typical := queriedSources(r, c.g)
		// The repeated source of queriedSources is a row of its own here.
		h, err := hierarchy.Build(context.Background(), c.g)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		targets := []int32{sources[0], 0, c.g.N - 1, r.Int32N(c.g.N), sources[1]}
		queries := []struct {
			name    string
			targets []int32
			cutoff  int64
			cells   bool
		}{
			{"whole rows", nil, results.NoCutoff, false},
			{"cutoff 0", nil, 0, false},
			{"typical cutoff", nil, typical, false},
			{"typical cutoff, sparse allowed", nil, typical, true},
			{"targets", targets, results.NoCutoff, false},
		}
		for _, alg := range []string{sssp.SSSPFamily, sssp.AlgorithmCH} {
			for _, q := range queries {
				req := &backend.Request{Shape: results.Shape{Sources: sources, Targets: q.targets, MaxDistance: q.cutoff,
					CutoffCells: q.cells, SummaryOnly: true}, CSR: c.g, Hierarchy: h,
					Choice: backend.Choice{Algorithm: backend.Algorithm{Name: alg}}}
				name := fmt.Sprintf("%s/seed %d/%s/%s", c.name, seed, alg, q.name)
				onDevice := q.targets == nil
				for _, batch := range []int{0, 5} {
					err := checkSummaries(req, refs, onDevice, func(sink results.Sink) error {
						_, err := one.SolveBatch(context.Background(), c.g, req, sssp.Options{Batch: batch}, sink)
						return err
					})
					if err != nil {
						t.Fatalf("%s/batch %d: %v", name, batch, err)
					}
				}
				if alg == sssp.AlgorithmCH {
					err := checkSummaries(req, refs, true, func(sink results.Sink) error { return two.Run(context.Background(), *req, sink) })
					if err != nil {
						t.Fatalf("%s/two contexts: %v", name, err)
					}
				}
			}
		}
	}
}

// checkSummaries runs run and checks that every row arrives once, as a
// summary equal to the host's reduction of its reference row; blocks of
// cells are reduced on the host first, and fail the check when summarized
// is set (the rows should have left the device as summaries).
func checkSummaries(req *backend.Request, refs [][]int64, summarized bool, run func(results.Sink) error) error {
	var (
		mu   sync.Mutex
		seen = make([]bool, len(req.Sources))
	)
	check := func(rows *results.Rows) error {
		defer rows.Release()
		if err := req.CheckRows(rows); err != nil {
			return err
		}
		for i := range rows.Len() {
			row := rows.First + i
			s := req.Sources[row]
			one := results.Shape{Sources: []int32{s}, Targets: req.Targets, MaxDistance: req.MaxDistance}
			whole := &results.Rows{Sources: []int32{s}, Width: int(req.CSR.N), Dist64: refs[row]}
			if want, got := one.SummarizeRow(one.NarrowBlock(whole), 0), rows.Summaries[i]; got != want {
				return fmt.Errorf("row %d (source %d): summary %+v, want %+v", row, s, got, want)
			}
			mu.Lock()
			dup := seen[row]
			seen[row] = true
			mu.Unlock()
			if dup {
				return fmt.Errorf("row %d handed over twice", row)
			}
		}
		return nil
	}
	summarize := req.SummarizeSink(check)
	sink := func(rows *results.Rows) error {
		if summarized && !rows.Summarized() {
			rows.Release()
			return fmt.Errorf("rows %d.. left the device as cells", rows.First)
		}
		return summarize(rows)
	}
	if err := run(sink); err != nil {
		return err
	}
	for row, ok := range seen {
		if !ok {
			return fmt.Errorf("row %d never handed over", row)
		}
	}
	return nil
}
