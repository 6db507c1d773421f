package compute

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/planner"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

func mapPlanErr(err error) error {
	var ce *planner.ChooseError
	var ng *planner.NoGPUError
	switch {
	case errors.As(err, &ng):
		return &stageerr.NoGPUError{Why: ng.Why}
	case errors.As(err, &ce) && ce.Setting == planner.SettingVariant:
		return config.Errorf(KeyVariant, "%w", ce.Err)
	case errors.As(err, &ce) && ce.Setting == planner.SettingAlgorithm:
		return config.Errorf(KeyAlgorithm, "%w", ce.Err)
	case errors.As(err, &ce):
		return &stageerr.ComputeError{Err: ce.Err}
	}
	return err
}

func TestZZPlannerEquivalence(t *testing.T) {
	type gpuKind struct {
		name      string
		register  bool
		available bool
		choose    func(p backend.Problem) (backend.Choice, error)
	}
	gpus := []gpuKind{
		{"none", false, false, nil},
		{"unavailable", true, false, func(p backend.Problem) (backend.Choice, error) { return backend.Choice{}, nil }},
		{"ok", true, true, func(p backend.Problem) (backend.Choice, error) {
			return backend.Choice{Algorithm: backend.Algorithm{Name: "sssp", Variant: "near-far"}, Reason: "fake"}, nil
		}},
		{"unsupported", true, true, func(p backend.Problem) (backend.Choice, error) {
			return backend.Choice{}, fmt.Errorf("gpu: nope: %w", backend.ErrUnsupported)
		}},
		{"int64", true, true, func(p backend.Problem) (backend.Choice, error) {
			return backend.Choice{}, fmt.Errorf("%w: too wide", backend.ErrNeedsInt64)
		}},
		{"other", true, true, func(p backend.Problem) (backend.Choice, error) {
			return backend.Choice{}, errors.New("gpu: broken")
		}},
	}
	graphs := map[string]*graph.EdgeList{}
	pos := graph.NewEdgeList(5000, 3)
	pos.Add(0, 1, 3)
	pos.Add(1, 2, 4)
	graphs["pos"] = pos
	neg := graph.NewEdgeList(30, 2)
	neg.Add(0, 1, -3)
	neg.Add(1, 2, 4)
	graphs["neg"] = neg
	algs := []struct{ name, variant string }{{"auto", ""}, {"dijkstra", ""}, {"johnson", ""}, {"floyd-warshall", "naive"}, {"floyd-warshall", "bogus"}, {"bfs", ""}, {"sssp", "x"}, {"ch", ""}}
	n := 0
	for _, gk := range gpus {
		if gk.register {
			backend.Register(backend.Factory{Name: backend.GPU,
				Available: func() (bool, string) {
					if gk.available {
						return true, "fake device"
					}
					return false, "no driver"
				},
				Choose: gk.choose,
				Open:   func(backend.Options) (backend.Backend, error) { return nil, errors.New("x") }})
		}
		for _, req := range []string{"auto", "cpu", "gpu"} {
			for gname, e := range graphs {
				for _, a := range algs {
					for _, all := range []bool{false, true} {
						cfg := &Config{Backend: req, Algorithm: a.name, Variant: a.variant}
						if all {
							cfg.Sources = []string{"all"}
						}
						var b1, b2 bytes.Buffer
						p1, err1 := planRun(cfg, e, 7, slog.New(slog.NewTextHandler(&b1, nil)))
						lo, hi := e.WeightRange()
						prob := backend.Problem{N: e.N, M: int64(e.M()), MinWeight: lo, MaxWeight: hi, Sources: 7, AllSources: cfg.allSources(),
							Algorithm: backend.Algorithm{Name: cfg.Algorithm, Variant: cfg.Variant, TileEdge: cfg.TileEdge}, Parents: cfg.Parents}
						p2, warns, err2 := planner.ChooseBackend(cfg.Backend, prob, backend.Lookup)
						log2 := slog.New(slog.NewTextHandler(&b2, nil))
						for _, w := range warns {
							log2.Warn(w.Msg, "why", w.Why)
						}
						err2 = mapPlanErr(err2)
						label := fmt.Sprintf("%s/%s/%s/%+v/%t", gk.name, req, gname, a, all)
						strip := func(s string) string {
							var out []string
							for _, l := range strings.Split(s, "\n") {
								if i := strings.Index(l, " level="); i >= 0 {
									l = l[i:]
								}
								out = append(out, l)
							}
							return strings.Join(out, "\n")
						}
						if strip(b1.String()) != strip(b2.String()) {
							t.Errorf("%s: logs\n%s\n%s", label, b1.String(), b2.String())
						}
						if fmt.Sprint(err1) != fmt.Sprint(err2) || fmt.Sprintf("%T", err1) != fmt.Sprintf("%T", err2) {
							t.Errorf("%s: errors %T %v / %T %v", label, err1, err1, err2, err2)
						}
						if err1 != nil && err2 != nil {
							var c1, c2 *config.Error
							if errors.As(err1, &c1) != errors.As(err2, &c2) || (c1 != nil && c1.Key != c2.Key) {
								t.Errorf("%s: config keys differ", label)
							}
							for _, target := range []error{backend.ErrUnsupported, backend.ErrNeedsInt64} {
								if errors.Is(err1, target) != errors.Is(err2, target) {
									t.Errorf("%s: Is %v differs", label, target)
								}
							}
						}
						if p1.Factory.Name != p2.Factory.Name || p1.Why != p2.Why || fmt.Sprint(p1.Choice) != fmt.Sprint(p2.Choice) {
							t.Errorf("%s: plans %v %q %+v / %v %q %+v", label, p1.Factory.Name, p1.Why, p1.Choice, p2.Factory.Name, p2.Why, p2.Choice)
						}
						n++
					}
				}
			}
		}
		backend.Unregister(backend.GPU)
	}
	t.Logf("%d backend cases", n)
	// AutoCH and the shard adaptation.
	m := 0
	for _, alg := range []string{"auto", "dijkstra"} {
		for _, variant := range []string{"", "x"} {
			for _, sources := range [][]string{nil, {"all"}, {"1", "2"}} {
				for _, split := range []bool{false, true} {
					for _, nv := range []int32{100, 5000} {
						for _, kind := range []int{0, 1, 2} {
							for _, ns := range []int{1, 2, 9} {
								cfg := &Config{Algorithm: alg, Variant: variant, Sources: sources}
								if split {
									cfg.Shard.Count, cfg.Shard.Index = 4, 1
								}
								run := &computeRun{sources: make([]int32, ns)}
								targets := -1
								switch kind {
								case 1:
									run.targets = make([]int32, 3)
									targets = 3
								case 2:
									run.sourceTargets = make([][]int32, ns)
								}
								ok1, q1 := autoCHQuery(cfg, run, nv)
								ok2, q2 := planner.AutoCH(planner.Query{Algorithm: cfg.Algorithm, Variant: cfg.Variant, AllSources: cfg.allSources(), N: nv,
									Sources: len(run.sources), Targets: targets, PairList: run.sourceTargets != nil, Sharded: cfg.Shard.Split()})
								if ok1 != ok2 || q1 != q2 {
									t.Errorf("autoCH %+v %d: %t %q / %t %q", cfg, kind, ok1, q1, ok2, q2)
								}
								for _, e := range graphs {
									lo, _ := e.WeightRange()
									got := planner.ShardAlgorithm(cfg.Algorithm, cfg.Shard.Split(), sourcesKeyAll(cfg.Sources), lo)
									if want := shardPlanConfig(cfg, e).Algorithm; got != want {
										t.Errorf("shard %+v: %q / %q", cfg, got, want)
									}
								}
								m++
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d hierarchy and shard cases", m)
}
