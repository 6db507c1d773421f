package compute

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/pipeline/input"
)

// autoCHMaxAllPairsN: all pairs on up to this many vertices stay with
// auto's own pick (the CPU's blocked Floyd-Warshall, whose n^3 steps cost
// well under a nanosecond each, is faster there than PHAST's rows).
const autoCHMaxAllPairsN = 4096

// autoCHQuery says whether the run's query is one that compute.algorithm:
// auto answers from a stored hierarchy, and describes it: at least two
// sources (one shard of a sharded run counts as many, so every shard
// plans alike), or any targets or pair list, and not all pairs of a small
// graph. The weights are checked by the caller.
func autoCHQuery(cfg *Config, run *computeRun, n int32) (bool, string) {
	if cfg.Algorithm != backend.AlgorithmAuto || cfg.Variant != "" {
		return false, ""
	}
	sources := len(run.sources)
	switch {
	case cfg.allSources() && n <= autoCHMaxAllPairsN:
		return false, ""
	case run.sourceTargets != nil:
		return true, fmt.Sprintf("a pair list from %d sources", sources)
	case run.targets != nil:
		return true, fmt.Sprintf("%d sources x %d targets", sources, len(run.targets))
	case sources >= 2:
		return true, fmt.Sprintf("%d sources, whole rows", sources)
	case cfg.Shard.Split():
		return true, "a shard of a sharded run"
	}
	return false, ""
}

// planCompute is planRun, with the input's stored contraction hierarchy
// taken into account. With compute.algorithm ch the run answers from the
// stored hierarchy when there is one (else the backend builds one); with
// auto, a stored hierarchy that matches the graph makes the plan ch (on the
// configured backend) when autoCHQuery accepts the query and no weight is negative. A
// stored hierarchy of another graph is refused (*InputError) whenever the
// run would use one. It returns the plan, the configuration to open the
// backend with, and the hierarchy to hand to it (nil when the plan is not
// ch or none is stored); stages["hierarchy"] gets the time to check and
// read it.
func planCompute(cfg *Config, g *input.LoadedGraph, run *computeRun, stages map[string]float64, log *slog.Logger) (Plan, *Config, *hierarchy.Hierarchy, error) {
	autoCH, query := autoCHQuery(cfg, run, g.Edges.N)
	lo, _ := g.Edges.WeightRange()
	autoCH = autoCH && lo >= 0
	if cfg.Algorithm != backend.AlgorithmCH && !autoCH {
		plan, err := planRun(cfg, g.Edges, len(run.sources), log)
		return plan, cfg, nil, err
	}
	began := time.Now()
	stored, err := storedHierarchyFor(g, cfg.Workers)
	if err != nil {
		return Plan{}, nil, nil, err
	}
	checked := time.Since(began)
	planCfg := cfg
	if autoCH && stored != nil {
		chCfg := *cfg
		// A tile edge given with auto applies to Floyd-Warshall alone. The
		// backend stays the configured one: both answer ch.
		chCfg.Algorithm, chCfg.TileEdge = backend.AlgorithmCH, 0
		planCfg = &chCfg
	}
	plan, err := planRun(planCfg, g.Edges, len(run.sources), log)
	if err != nil || stored == nil {
		return plan, planCfg, nil, err
	}
	h, seconds, err := loadStoredHierarchy(stored, cfg.Workers, checked, run, log)
	if err != nil {
		return Plan{}, nil, nil, err
	}
	stages["hierarchy"] = seconds
	if planCfg != cfg {
		plan.Why += "; auto: ch from the stored hierarchy"
		plan.Choice.Reason = fmt.Sprintf("auto: the input folder holds a contraction hierarchy of this graph (%s) and the query is %s with non-negative weights: ch (PHAST sweeps on the GPU; bucket tables for targets and PHAST for whole rows on the CPU)",
			stored.named, query)
	} else {
		plan.Choice.Reason = fmt.Sprintf("requested: the contraction hierarchy stored with the input (%s), then PHAST sweeps on the GPU, or bucket tables for targets and PHAST for whole rows on the CPU", stored.named)
	}
	return plan, planCfg, h, nil
}
