package ingest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
)

// ingest.hierarchy: auto stores a hierarchy when a trial says the graph
// contracts like a road network: a connected sample of it (graph.Ball) is
// contracted, with the witness searches' work bounded, and the work and
// the shortcuts it took decide. Arcs per vertex, hubs or two-way shares
// do not: real road networks with many dual carriageways sit above the
// 2.4-2.8 arcs per vertex of the DIMACS graphs and still contract well,
// and a graph of few arcs per vertex can be one that does not. The trial
// counts settled vertices, not seconds, so it decides the same on any
// machine and core count.
//
// Measured 2026-11-27 on samples of 32,768 vertices from vertex 0 and
// from the middle (two workers; docs/road-networks.md, "auto"):
//
//	graph                                   settled/vertex  shortcuts/arc
//	road:side=512, road:side=1024           36-38           0.76-0.78
//	road:side=512 + diagonals, 3.5 arcs/v   98-101          0.99
//	road:side=512,local=0.5, 3.0 arcs/v     77              1.04
//	road:side=512,local=0.8, 3.6 arcs/v     147             1.29
//	road:side=512,local=1, 4.0 arcs/v       247             1.50
//	Delaware (OpenStreetMap)                95-96           0.71-0.80
//	grid:side=512, weights 1..1000          826-829         1.73
//	Erdos-Renyi, random out-degree, Gnutella  > 1,670 (stopped at the bound)
const (
	// AutoHierarchyMinN: below 10,000 vertices a hierarchy saves a run
	// next to nothing. A Dijkstra search over the whole graph takes about
	// a millisecond there, and building the hierarchy in the run itself
	// takes about 0.2 s (1.5 cpu-s for 65,536 road vertices,
	// docs/road-networks.md), so storing one is not worth three more files.
	AutoHierarchyMinN = 10_000
	// AutoTrialVertices is the size of the sample contracted: a few
	// tenths of a second for a road network.
	AutoTrialVertices = 32_768
	// AutoTrialMaxSettled bounds the trial's witness searches, in settled
	// vertices per vertex of the sample: about 4 times what Delaware
	// needs, half a random-weight grid's. Graphs that do not contract
	// (random, peer-to-peer, social) reach it within a few rounds, so
	// they are refused in about a second.
	AutoTrialMaxSettled = 400
	// AutoTrialMaxShortcutsPerArc bounds the shortcuts the trial adds per
	// arc of the sample: road networks add 0.7-1.0, the densest road-like
	// grids (every street kept, 4 arcs per vertex, 2026-11-28) 1.5, a
	// random-weight grid 1.7.
	AutoTrialMaxShortcutsPerArc = 1.6
	// AutoTrialSimulationSettled is the scoring searches' bound in the
	// trial, the one the figures above were measured with: the work
	// bound counts their settled vertices too.
	AutoTrialSimulationSettled = 100
)

// roadLike reports whether the graph g contracts like a road network, by
// the trial above, and says why or why not. It assumes non-negative
// weights were checked. O(n) for the sample's numbering, then the trial's
// bounded work on workers goroutines.
func roadLike(ctx context.Context, g *graph.CSR, workers int) (bool, string, error) {
	if g.N < AutoHierarchyMinN {
		return false, fmt.Sprintf("auto: %d vertices, below the %d worth storing a hierarchy for", g.N, AutoHierarchyMinN), nil
	}
	sample := g.Ball(0, AutoTrialVertices)
	var last hierarchy.Progress
	began := time.Now()
	_, err := hierarchy.Build(ctx, sample, hierarchy.WithWorkers(workers), hierarchy.WithWorkLimit(AutoTrialMaxSettled),
		hierarchy.WithSimulationSettled(AutoTrialSimulationSettled),
		hierarchy.WithProgress(func(p hierarchy.Progress) error { last = p; return nil }))
	took := time.Since(began).Seconds()
	var over *hierarchy.WorkLimitError
	switch {
	case errors.As(err, &over):
		return false, fmt.Sprintf("auto: contracting a sample of %d vertices (%.2f arcs per vertex) took more than %d settled vertices per vertex of witness searches by round %d, with %d contracted (%.1f s): the graph does not contract like a road network",
			sample.N, arcsPerVertex(sample), AutoTrialMaxSettled, over.Round, over.Contracted, took), nil
	case err != nil:
		return false, "", fmt.Errorf("ingest.hierarchy auto: contracting a sample of %d vertices: %w", sample.N, err)
	}
	settled := float64(last.Settled) / float64(sample.N)
	perArc := float64(last.Shortcuts) / float64(max(sample.M(), 1))
	if perArc > AutoTrialMaxShortcutsPerArc {
		return false, fmt.Sprintf("auto: contracting a sample of %d vertices added %.2f shortcuts per arc, above the %g of road networks (%.0f settled per vertex, %.1f s)",
			sample.N, perArc, AutoTrialMaxShortcutsPerArc, settled, took), nil
	}
	return true, fmt.Sprintf("auto: a sample of %d vertices (%.2f arcs per vertex) contracted like a road network: %.0f settled vertices per vertex (<= %d), %.2f shortcuts per arc (<= %g), %.1f s",
		sample.N, arcsPerVertex(sample), settled, AutoTrialMaxSettled, perArc, AutoTrialMaxShortcutsPerArc, took), nil
}

// arcsPerVertex is g's mean out-degree.
func arcsPerVertex(g *graph.CSR) float64 { return float64(g.M()) / float64(max(g.N, 1)) }
