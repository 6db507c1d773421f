package compute

import (
	"fmt"
	"math"

	"github.com/pathflow/pathflow/internal/backend"
)

// The cost model behind compute.backend auto and the number of GPUs a run
// opens. A GPU run pays, before its first kernel, a CUDA context per
// device and the graph's upload; a small job (a table on a road network of
// a state) is done by the CPU in less time than that. The model estimates
// both sides from the job's size and a few constants measured on real
// runs, and picks the faster; it is deterministic, coarse by design (a
// factor of two either way changes few choices), and errs towards the
// GPU where it knows no rate: an algorithm it has no constant for is never
// moved to the CPU.
//
// The constants, with where they were measured (docs/performance.md has
// the runs). CPU figures are seconds of one core; the run divides them by
// compute.workers.
const (
	// cudaContextSeconds is opening one GPU: its CUDA context and module
	// load. 0.22-0.23 s, the backend stage of a ch table on an NVIDIA H200
	// (2026-11-27, "The whole job at 24M vertices"); contexts are opened
	// one after the other, so k devices cost k times this.
	cudaContextSeconds = 0.22
	// gpuUploadArcsPerSecond is the graph's upload (CSR or hierarchy) in
	// arcs of the input graph a second: 0.1 s for the hierarchy of
	// road:side=4900 (24.0M vertices, about 61M arcs) through the staged
	// uploads, the prepare_s of 1,024 summary-only trees on an NVIDIA H200
	// (2026-11-28, "Uploads through pinned chunks"; 0.3 s before).
	gpuUploadArcsPerSecond = 6e8

	// cpuCHSearchSeconds is one upward search of a stored hierarchy on the
	// CPU, on chSearchReferenceN vertices: 21 µs on the Delaware road
	// network (73,673 vertices), from 1,000 x 10 and 10 x 1,000 tables on
	// the 2-core development machine (2026-11-28). The search space grows
	// as n^chSearchGrowth: 0.7 puts a search on the 24.0M-vertex road-like
	// graph at 1.2 ms, as its 1,000 x 1,000 table measured (0.37 s on 16
	// cores, 2026-11-27).
	cpuCHSearchSeconds = 21e-6
	chSearchReferenceN = 73673
	chSearchGrowth     = 0.7
	// cpuCHCellSeconds is one cell of a ch table past the searches: 10 ns
	// without parents; 390 ns with them (each cell's parent is found among
	// its in-neighbours, which join the table): Delaware 1,000 x 1,000,
	// -parents=false against the default, 2-core machine (2026-11-28).
	cpuCHCellSeconds       = 10e-9
	cpuCHParentCellSeconds = 390e-9
	// cpuCHTreeVertexSeconds is a whole ch row (a PHAST sweep) per
	// vertex: 100 whole trees of Delaware in 0.06 s on 2 cores (2026-11-28).
	cpuCHTreeVertexSeconds = 16e-9
	// cpuSearchElementSeconds is a Dijkstra search per vertex and arc it
	// settles and scans: 100 whole trees of Delaware (249K vertices and
	// arcs) in 0.50 s on 2 cores (2026-11-28).
	cpuSearchElementSeconds = 40e-9
	// cpuFloydWarshallStepSeconds is one of the n^3 steps of blocked
	// Floyd-Warshall: grid:side=40 (1,600 vertices) in 0.56-0.63 s on 2
	// cores (2026-11-28).
	cpuFloydWarshallStepSeconds = 0.29e-9

	// gpuCHSearchSeconds is one upward search on the GPU, on
	// gpuCHSearchReferenceN vertices: the 1,000 x 1,000 table of the
	// 24.0M-vertex road-like graph took 0.043 s of kernels for its 2,000
	// searches on an NVIDIA H200 (2026-11-27).
	gpuCHSearchSeconds    = 21.5e-6
	gpuCHSearchReferenceN = 24_010_000
	// gpuSearchElementsPerSecond is a whole near-far search in
	// vertices and arcs a second: 4,096 sources on grid:side=4900 (24.0M
	// vertices, 96M arcs) in 21 s on one NVIDIA H200 (2026-11-27).
	gpuSearchElementsPerSecond = 2.3e10
	// gpuSweepElementsPerSecond is a whole ch tree (a PHAST sweep of the
	// stored hierarchy) in vertices and arcs of the input graph a second:
	// 4,096 summary-only trees on road:side=4900 (24.0M vertices, about
	// 61M arcs) in 1.27 s of kernels on one NVIDIA H100 (2026-11-28,
	// "Summaries reduced where the rows are made"), 0.31 ms a tree.
	gpuSweepElementsPerSecond = 2.7e11
	// gpuFloydWarshallStepsPerSecond: Gnutella30's all pairs (36,682
	// vertices) in 1.89 s of kernels on one GPU (2026-11-27).
	gpuFloydWarshallStepsPerSecond = 2.6e13
)

// jobSize is what the cost model knows of a run before any device is
// opened.
type jobSize struct {
	// N and M are the graph's vertex and arc counts.
	N int32
	M int64
	// Sources is the number of rows; Targets the number of targets of a
	// row (the mean over a pair list's rows), -1 for whole rows.
	Sources int
	Targets float64
	// Parents is true when the rows carry parents.
	Parents bool
	// Workers is the number of host cores the CPU backend runs on.
	Workers int
}

// searchSpace scales a search measured at reference vertices to n.
func searchSpace(seconds float64, reference, n int32) float64 {
	return seconds * math.Pow(float64(max(n, 1))/float64(reference), chSearchGrowth)
}

// cpuSeconds estimates the CPU backend's time for the job with algorithm
// alg (its Choice's name), or +Inf for one the model has no rate for.
// Searches are spread over the cores by source, so fewer sources than
// cores leave cores idle; Floyd-Warshall spreads each step's tiles.
func (j jobSize) cpuSeconds(alg string) float64 {
	s, n, m := float64(j.Sources), float64(j.N), float64(j.M)
	var core float64
	switch alg {
	case backend.AlgorithmCH:
		search := searchSpace(cpuCHSearchSeconds, chSearchReferenceN, j.N)
		if j.Targets < 0 {
			core = s * (search + n*cpuCHTreeVertexSeconds)
			break
		}
		// With parents, each target's in-neighbours are searched too.
		searched, cell := j.Targets, cpuCHCellSeconds
		if j.Parents {
			searched, cell = j.Targets*(1+m/max(n, 1)), cpuCHParentCellSeconds
		}
		core = (s+searched)*search + s*j.Targets*cell
	case backend.AlgorithmDijkstra, backend.AlgorithmJohnson:
		core = s * (n + m) * cpuSearchElementSeconds
	case backend.AlgorithmFloydWarshall:
		core = n * n * n * cpuFloydWarshallStepSeconds
	default:
		return math.Inf(1)
	}
	return core / float64(j.cpuCores(alg))
}

// cpuCores is the number of cores the CPU backend keeps busy on the job
// with algorithm alg: searches go to the cores by source.
func (j jobSize) cpuCores(alg string) int {
	if alg == backend.AlgorithmFloydWarshall {
		return max(j.Workers, 1)
	}
	return max(min(j.Workers, j.Sources), 1)
}

// gpuKernelSeconds estimates the GPU kernels' time for the job on one
// device with algorithm alg, or 0 for one the model has no rate for.
func (j jobSize) gpuKernelSeconds(alg string) float64 {
	s, n, m := float64(j.Sources), float64(j.N), float64(j.M)
	switch alg {
	case backend.AlgorithmCH:
		if j.Targets >= 0 {
			return (s + j.Targets) * searchSpace(gpuCHSearchSeconds, gpuCHSearchReferenceN, j.N)
		}
		return s * (n + m) / gpuSweepElementsPerSecond
	case backend.AlgorithmFloydWarshall:
		return n * n * n / gpuFloydWarshallStepsPerSecond
	case backend.AlgorithmSSSP, backend.AlgorithmDijkstra, backend.AlgorithmBellmanFord:
		return s * (n + m) / gpuSearchElementsPerSecond
	}
	return 0
}

// gpuEstimate is the model's GPU side: how many devices, and the time.
type gpuEstimate struct {
	Devices                                   int
	Seconds                                   float64
	OpenSeconds, UploadSeconds, KernelSeconds float64
}

// gpuSeconds estimates the GPU run of alg on up to visible devices. One
// more device is opened while the kernel time it saves, kernels/(k(k+1))
// for going from k to k+1 devices, is more than its context costs.
func (j jobSize) gpuSeconds(alg string, visible int) gpuEstimate {
	kernels := j.gpuKernelSeconds(alg)
	k := 1
	for k < visible && kernels/float64(k*(k+1)) > cudaContextSeconds {
		k++
	}
	e := gpuEstimate{
		Devices:       k,
		OpenSeconds:   float64(k) * cudaContextSeconds,
		UploadSeconds: float64(j.M) / gpuUploadArcsPerSecond,
		KernelSeconds: kernels / float64(k),
	}
	e.Seconds = e.OpenSeconds + e.UploadSeconds + e.KernelSeconds
	return e
}

// placement is the cost model's answer for a run that could go to a GPU.
type placement struct {
	// CPU is true when the CPU is estimated faster (a tie included: the
	// CPU opens nothing).
	CPU bool
	// Devices is the number of GPUs worth opening for the job, at least one.
	Devices int
	// CPUText and GPUText give the estimates, for the log and the manifest.
	CPUText, GPUText string
}

// place weighs the job on the CPU (running cpuAlg) against the GPU
// (running gpuAlg) on the visible devices, which must be at least one.
func place(j jobSize, cpuAlg, gpuAlg string, visible []backend.DeviceInfo) placement {
	cpu := j.cpuSeconds(cpuAlg)
	gpu := j.gpuSeconds(gpuAlg, len(visible))
	p := placement{
		CPU:     cpu <= gpu.Seconds,
		Devices: gpu.Devices,
		CPUText: "no CPU estimate for " + cpuAlg,
		GPUText: fmt.Sprintf("%.3g s on %d of %d GPUs (%s: opening %.3g s, upload %.3g s, kernels %.3g s)",
			gpu.Seconds, gpu.Devices, len(visible), visible[0].Name, gpu.OpenSeconds, gpu.UploadSeconds, gpu.KernelSeconds),
	}
	if !math.IsInf(cpu, 1) {
		p.CPUText = fmt.Sprintf("%.3g s on %d cores", cpu, j.cpuCores(cpuAlg))
	}
	return p
}
