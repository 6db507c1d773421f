package pipeline

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/cpu"
	"github.com/pathflow/pathflow/internal/graph"
)

// Plan is what a compute run will do, resolved from the configuration and
// the loaded graph.
type Plan struct {
	// AllPairs is true for all-pairs algorithms (the sources key then picks
	// which rows are written).
	AllPairs bool
	// Algorithm is what the backend runs; Reason says why auto chose it.
	Algorithm backend.Algorithm
	Reason    string
}

// planRun resolves compute.algorithm for the graph and backend, refusing
// combinations that cannot give a correct answer.
func planRun(cfg *ComputeConfig, e *graph.EdgeList, backendName string) (Plan, error) {
	lo, _ := e.WeightRange()
	negative := lo < 0
	alg := backend.Algorithm{Name: cfg.Algorithm, Variant: cfg.Variant, BlockSize: cfg.BlockSize}
	plan := Plan{Algorithm: alg, Reason: "requested"}

	switch cfg.Algorithm {
	case AlgorithmFloydWarshall, AlgorithmJohnson:
		plan.AllPairs = true
	case AlgorithmDijkstra:
		if negative {
			return plan, config.Errorf(KeyAlgorithm, "dijkstra needs non-negative weights and the graph has an arc of weight %d; use bellman-ford", lo)
		}
	case AlgorithmSSSP:
		if backendName == BackendCPU {
			plan.Algorithm.Name = AlgorithmDijkstra
			plan.Reason = "sssp on the CPU backend is Dijkstra"
			if negative {
				plan.Algorithm.Name = AlgorithmBellmanFord
				plan.Reason = fmt.Sprintf("sssp on the CPU backend with negative weights (min %d) is Bellman-Ford", lo)
			}
		}
	case AlgorithmAuto:
		plan.AllPairs = cfg.allSources()
		switch {
		case backendName == BackendCPU:
			problem := cpu.ProblemSingleSource
			if plan.AllPairs {
				problem = cpu.ProblemAllPairs
			}
			plan.Algorithm.Name, plan.Reason = cpu.ChooseAlgorithm(problem, e.N, e.M(), negative)
		case plan.AllPairs:
			plan.Algorithm.Name = AlgorithmFloydWarshall
			plan.Reason = fmt.Sprintf("all pairs on %d vertices on the GPU: Floyd-Warshall", e.N)
		case negative:
			plan.Algorithm.Name = AlgorithmBellmanFord
			plan.Reason = fmt.Sprintf("negative weights (min %d) on the GPU: Bellman-Ford", lo)
		default:
			plan.Algorithm.Name = AlgorithmSSSP
			plan.Reason = "non-negative weights on the GPU: the fast frontier SSSP"
		}
	}
	return plan, nil
}
