package compute

import (
	"log/slog"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/planner"
	"github.com/pathflow/pathflow/pipeline/input"
)

// chQuery describes the run's query for planner.AutoCH.
func chQuery(cfg *Config, run *computeRun, n int32) planner.Query {
	targets := -1
	if run.targets != nil {
		targets = len(run.targets)
	}
	return planner.Query{
		Algorithm: cfg.Algorithm, Variant: cfg.Variant, AllSources: cfg.allSources(), N: n,
		Sources: len(run.sources), Targets: targets, PairList: run.sourceTargets != nil,
		Sharded: cfg.Shard.Split(),
	}
}

// jobFor describes the run's job for the cost model (planRun).
func jobFor(cfg *Config, run *computeRun, g *input.LoadedGraph) jobSize {
	job := jobSize{
		N: g.Edges.N, M: int64(g.Edges.M()), Sources: len(run.sources), Targets: -1,
		Parents: run.readsParents(), Workers: cfg.Workers,
	}
	switch {
	case run.targets != nil:
		job.Targets = float64(len(run.targets))
	case run.sourceTargets != nil:
		total := 0
		for _, ts := range run.sourceTargets {
			total += len(ts)
		}
		job.Targets = float64(total) / float64(max(len(run.sourceTargets), 1))
	}
	return job
}

// planCompute is planRun, with the input's stored contraction hierarchy
// taken into account. With compute.algorithm ch the run answers from the
// stored hierarchy when there is one (else the backend builds one); with
// auto, a stored hierarchy that matches the graph makes the plan ch (on the
// configured backend) when planner.AutoCH accepts the query and no weight
// is negative. A stored hierarchy of another graph is refused
// (*InputError) whenever the run would use one. It returns the plan, the
// configuration to open the backend with, and the hierarchy to hand to it
// (nil when the plan is not ch or none is stored); stages["hierarchy"]
// gets the time to check and read it. planned hears of the plan as soon
// as it is made, before the hierarchy is read (the GPU's warm-up starts
// there, backendWarmup).
func planCompute(cfg *Config, g *input.LoadedGraph, run *computeRun, stages map[string]float64, planned func(Plan), log *slog.Logger) (Plan, *Config, *hierarchy.Hierarchy, error) {
	autoCH, query := planner.AutoCH(chQuery(cfg, run, g.Edges.N))
	lo, _ := g.Edges.WeightRange()
	autoCH = autoCH && lo >= 0
	if cfg.Algorithm != backend.AlgorithmCH && !autoCH {
		plan, err := planRun(cfg, g.Edges, jobFor(cfg, run, g), log)
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
		// The backend stays the configured one: both answer ch.
		ch := planner.WithCH(backend.Algorithm{Name: cfg.Algorithm, Variant: cfg.Variant, TileEdge: cfg.TileEdge})
		chCfg.Algorithm, chCfg.TileEdge = ch.Name, ch.TileEdge
		planCfg = &chCfg
	}
	plan, err := planRun(planCfg, g.Edges, jobFor(cfg, run, g), log)
	if err != nil || stored == nil {
		return plan, planCfg, nil, err
	}
	planned(plan)
	h, seconds, err := loadStoredHierarchy(stored, cfg.Workers, checked, run, log)
	if err != nil {
		return Plan{}, nil, nil, err
	}
	stages["hierarchy"] = seconds
	if !hierarchyCarriesMetrics(cfg, h, log) {
		return plan, planCfg, nil, nil
	}
	if planCfg != cfg {
		plan.Why += planner.StoredCHWhy
	}
	plan.Choice.Reason = planner.StoredCHReason(stored.named, query, planCfg != cfg)
	return plan, planCfg, h, nil
}

// warmHierarchy starts, for a GPU run of a stored hierarchy h, what every
// GPU sweep of it reads first (its levels, hierarchy.Hierarchy.Levels,
// computed once) on the host while the GPU's contexts open: 0.08-0.1 s at
// 24M vertices (NVIDIA H200 host, 2026-11-28) that otherwise fell in the
// compute stage, at the start of every device's run.
func warmHierarchy(plan Plan, h *hierarchy.Hierarchy) {
	if h != nil && plan.Factory.Name == backend.GPU {
		go h.Levels()
	}
}
