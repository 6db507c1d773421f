//go:build cuda

package gpubench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/gputest"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// Run generates or reads the graph, then for every variant and parameter
// combination times single-source solves (CUDA events around the kernels,
// and wall time including the copy back and conversion; median of the
// repeats after warm-up) and the multi-source run, checking results against
// CPU references (see reference).
func (c *SSSPConfig) Run(ctx context.Context, out io.Writer, files GraphFiles) (err error) {
	if c.Seed == 0 {
		c.Seed = uint64(time.Now().UnixNano())
	}
	start := time.Now()
	g, name, err := c.load(files)
	if err != nil {
		return err
	}
	lo, hi := g.WeightRange()
	fmt.Fprintf(out, "graph %s: n %d, m %d, weights %d..%d, seed %d (built in %v)\n",
		name, g.N, g.M(), lo, hi, c.Seed, time.Since(start).Round(time.Millisecond))
	b, err := gpu.New(gpu.WithDevice(c.Device))
	if err != nil {
		return err
	}
	defer closeInto(&err, b)
	fmt.Fprintf(out, "device %s, %s\n", b.Device(), time.Now().Format("2006-01-02"))

	r := rand.New(rand.NewPCG(c.Seed, 77))
	sources, err := c.sources(g.N, r)
	if err != nil {
		return err
	}
	// Distinct sources: the backends refuse a repeated one. A permutation's
	// prefix draws them without retries however many are asked for.
	if int64(c.Multi) > int64(g.N) {
		return fmt.Errorf("gpubench: --%s=%d sources on a graph of %d vertices", ssspFlagMulti, c.Multi, g.N)
	}
	multiSources := make([]int32, c.Multi)
	for i, v := range r.Perm(int(g.N))[:c.Multi] {
		multiSources[i] = int32(v)
	}
	ref := newReference(g, lo < 0)
	if c.CPU || c.Validate {
		for _, s := range sources {
			if _, err := ref.distances(ctx, s); err != nil {
				return err
			}
			fmt.Fprintf(out, "%s from %d: %v (1 thread)\n", ref.name, s, ref.took[s].Round(time.Microsecond))
		}
	}
	for _, variant := range c.Variants {
		for _, opts := range c.options(variant) {
			if err := c.single(ctx, out, b, g, variant, opts, sources, ref); err != nil {
				return err
			}
		}
		if c.Multi > 0 {
			for _, opts := range c.multiOptions(variant) {
				if err := c.multi(ctx, out, b, g, variant, opts, multiSources, ref); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// load builds or reads the graph and names it.
func (c *SSSPConfig) load(files GraphFiles) (*graph.CSR, string, error) {
	var e *graph.EdgeList
	var err error
	var name string
	switch c.Graph {
	case "grid":
		name = fmt.Sprintf("grid %dx%d", c.Side, c.Side)
		e, err = generate.Grid(c.Side, c.Lo, c.Hi, c.Seed)
	case "degree":
		name = fmt.Sprintf("degree-%d random", c.Degree)
		e, err = generate.RandomDegree(c.N, c.Degree, c.Lo, c.Hi, c.Seed)
	default:
		name = c.Graph
		if strings.HasSuffix(c.Graph, ".gr") || strings.HasSuffix(c.Graph, ".gr.gz") {
			e, err = files.ReadDIMACS(c.Graph)
		} else {
			e, err = files.ReadSNAP(c.Graph)
		}
	}
	if err != nil {
		return nil, "", fmt.Errorf("gpubench sssp: %w", err)
	}
	return graph.BuildCSR(e), name, nil
}

// sources resolves the --sources words; ids beyond the graph are clamped
// to it.
func (c *SSSPConfig) sources(n int32, r *rand.Rand) ([]int32, error) {
	var out []int32
	for _, s := range c.Sources {
		switch s {
		case "corner":
			out = append(out, 0)
		case "center":
			if c.Graph == "grid" {
				out = append(out, c.Side/2*c.Side+c.Side/2)
			} else {
				out = append(out, n/2)
			}
		case "random":
			out = append(out, r.Int32N(n))
		default:
			v, err := strconv.ParseInt(s, 10, 32)
			if err != nil {
				// InitFromViper rejects such words; a Config built in code may not.
				return nil, fmt.Errorf("gpubench sssp: --%s %q: want vertex ids, corner, center or random", ssspFlagSources, s)
			}
			out = append(out, int32(min(max(v, 0), int64(n-1))))
		}
	}
	return out, nil
}

// single times one solver over the single sources.
func (c *SSSPConfig) single(ctx context.Context, out io.Writer, b *gpu.Backend, g *graph.CSR, variant string,
	opts sssp.Options, sources []int32, ref *reference) (err error) {
	s, err := b.PrepareSSSP(g, backend.Algorithm{Name: sssp.SSSPFamily, Variant: variant}, opts)
	if err != nil {
		return err
	}
	defer closeInto(&err, s)
	for _, src := range sources {
		var kernel, wall []time.Duration
		var stats sssp.Stats
		for i := range c.Warmup + c.Repeats {
			var tree *paths.Tree
			begin := time.Now()
			st, err := s.Solve(ctx, []int32{src}, c.Parents, func(r *results.Rows) error {
				defer r.Release()
				tree = r.Tree(0).Copy()
				return nil
			})
			took := time.Since(begin)
			if err != nil {
				return fmt.Errorf("%s from %d: %w", variant, src, err)
			}
			if c.Validate {
				if err := ref.check(ctx, tree, c.Parents); err != nil {
					return fmt.Errorf("%s from %d: %w", variant, src, err)
				}
			}
			if i >= c.Warmup {
				kernel, wall, stats = append(kernel, st.Kernel), append(wall, took), st
			}
		}
		k, w := median(kernel), median(wall)
		line := fmt.Sprintf("%-9s src %-9d delta %-7d local %-3d blocks %-4d bs %-4d | kernel %9.3f ms (min %9.3f) wall %9.3f ms | %8.1f Marcs/s | steps %6d splits %5d launches %7d syncs %5d",
			variant, src, stats.Delta, stats.LocalRounds, stats.BlocksPerSource, stats.ThreadsPerBlock, ms(k), ms(slices.Min(kernel)), ms(w),
			float64(g.M())/k.Seconds()/1e6, stats.Steps, stats.Splits, stats.Launches, stats.HostSyncs)
		if stats.Relaxations > 0 {
			line += fmt.Sprintf(" relax/m %.2f", float64(stats.Relaxations)/float64(max(g.M(), 1)))
		}
		if t, ok := ref.took[src]; ok && c.CPU {
			line += fmt.Sprintf(" | %s %9.3f ms, x%.1f", ref.name, ms(t), t.Seconds()/k.Seconds())
		}
		if c.Validate {
			line += " | ok"
		}
		fmt.Fprintln(out, line)
	}
	return nil
}

// multiSampleEvery is how often the multi-source run's rows are checked:
// every multiSampleEvery-th request row.
const multiSampleEvery = 97

// multi times one multi-source run of the random sources: wall time
// from the call to the last block handed over (copies included), the
// device time of the kernels, and the rate rows reached the host.
func (c *SSSPConfig) multi(ctx context.Context, out io.Writer, b *gpu.Backend, g *graph.CSR, variant string,
	opts sssp.Options, sources []int32, ref *reference) (err error) {
	s, err := b.PrepareSSSP(g, backend.Algorithm{Name: sssp.SSSPFamily, Variant: variant}, opts)
	if err != nil {
		return err
	}
	defer closeInto(&err, s)
	w, k, stats, err := c.timeMulti(ctx, s, g, variant, sources, ref)
	if err != nil {
		return err
	}
	line := fmt.Sprintf("%-9s multi %d sources, parents %v: wall %9.1f ms (%.3f ms/source) kernel %9.1f ms | %d batches of %d, %d blocks each, delta %d, local %d | steps/source %.0f launches %d syncs %d | %d blocks to the host at %.1f GB/s",
		variant, len(sources), c.Parents, ms(w), ms(w)/float64(len(sources)), ms(k), stats.Batches, stats.BatchSize,
		stats.BlocksPerSource, stats.Delta, stats.LocalRounds, float64(stats.Steps)/float64(len(sources)), stats.Launches, stats.HostSyncs,
		stats.Stream.Blocks, stats.Stream.Rate())
	if c.CPU && ref.cpu != nil {
		if ref.multi == 0 {
			workers := runtime.GOMAXPROCS(0)
			begin := time.Now()
			if err := ref.runCPU(ctx, sources, c.Parents, workers, func(r *results.Rows) error { r.Release(); return nil }); err != nil {
				return err
			}
			ref.multi, ref.workers = time.Since(begin), workers
		}
		line += fmt.Sprintf(" | %s %.1f ms on %d workers, x%.1f", ref.name, ms(ref.multi), ref.workers, ref.multi.Seconds()/w.Seconds())
	}
	if c.Validate {
		line += fmt.Sprintf(" | %d sampled trees ok", (len(sources)+multiSampleEvery-1)/multiSampleEvery)
	}
	fmt.Fprintln(out, line)
	return nil
}

// timeMulti solves sources with s, Warmup times untimed and then half the
// Repeats (at least once), checking the sampled rows of each run when
// validating. It returns the median wall and kernel times and the stats
// of the last run.
func (c *SSSPConfig) timeMulti(ctx context.Context, s *sssp.Solver, g *graph.CSR, variant string, sources []int32,
	ref *reference) (wall, kernel time.Duration, stats sssp.Stats, err error) {
	req := &backend.Request{Shape: results.Shape{Sources: sources, Columns: results.ColumnsOf().With(results.Parent, c.Parents)}, CSR: g}
	var walls, kernels []time.Duration
	for i := range c.Warmup + max(c.Repeats/2, 1) {
		var mu sync.Mutex
		var sample []*paths.Tree
		begin := time.Now()
		st, err := s.Solve(ctx, sources, c.Parents, func(r *results.Rows) error {
			defer r.Release()
			if err := req.CheckRows(r); err != nil {
				return err
			}
			for i := range r.Len() {
				if (r.First+i)%multiSampleEvery == 0 {
					t := r.Tree(i).Copy()
					mu.Lock()
					sample = append(sample, t)
					mu.Unlock()
				}
			}
			return nil
		})
		took := time.Since(begin)
		if err != nil {
			return 0, 0, stats, fmt.Errorf("%s multi-source: %w", variant, err)
		}
		if c.Validate {
			for _, t := range sample {
				if err := ref.check(ctx, t, c.Parents); err != nil {
					return 0, 0, stats, fmt.Errorf("%s multi-source from %d: %w", variant, t.Source, err)
				}
			}
		}
		if i >= c.Warmup {
			walls, kernels, stats = append(walls, took), append(kernels, st.Kernel), st
		}
	}
	return median(walls), median(kernels), stats, nil
}

// reference computes and caches the distances the GPU is checked against,
// timing each: with the CPU backend when the binary links one (a blank
// import of internal/cpu registers it), else with gputest's plain Dijkstra
// or Bellman-Ford.
type reference struct {
	g         *graph.CSR
	algorithm string
	// name says what computed the references, for the output.
	name  string
	dist  map[int32][]int64
	took  map[int32]time.Duration
	cpu   *backend.Factory
	multi time.Duration
	// workers is the CPU goroutines of the multi-source timing.
	workers int
}

func newReference(g *graph.CSR, negative bool) *reference {
	r := &reference{g: g, algorithm: backend.AlgorithmDijkstra, dist: map[int32][]int64{}, took: map[int32]time.Duration{}}
	if negative {
		r.algorithm = backend.AlgorithmBellmanFord
	}
	if f, ok := backend.Lookup(backend.CPU); ok {
		r.cpu, r.name = &f, "cpu "+r.algorithm
	} else {
		r.name = "reference " + r.algorithm
	}
	return r
}

// runCPU runs sources on the CPU backend with workers goroutines.
func (r *reference) runCPU(ctx context.Context, sources []int32, parents bool, workers int, sink results.Sink) (err error) {
	lo, hi := r.g.WeightRange()
	choice, err := r.cpu.Choose(backend.Problem{N: r.g.N, M: int64(r.g.M()), MinWeight: lo, MaxWeight: hi,
		Sources: len(sources), Algorithm: backend.Algorithm{Name: r.algorithm}})
	if err != nil {
		return err
	}
	b, err := r.cpu.Open(backend.Options{Workers: workers})
	if err != nil {
		return err
	}
	defer closeInto(&err, b)
	return b.Run(ctx, backend.Request{Shape: results.Shape{Sources: sources, Columns: results.ColumnsOf().With(results.Parent, parents), MaxDistance: results.NoCutoff}, CSR: r.g, Choice: choice}, sink)
}

// distances returns the reference distances from s, computing them on one
// thread the first time.
func (r *reference) distances(ctx context.Context, s int32) ([]int64, error) {
	if d, ok := r.dist[s]; ok {
		return d, nil
	}
	begin := time.Now()
	var d []int64
	switch {
	case r.cpu != nil:
		err := r.runCPU(ctx, []int32{s}, false, 1, func(b *results.Rows) error {
			defer b.Release()
			d = b.Tree(0).Copy().Dist
			return nil
		})
		if err != nil {
			return nil, err
		}
	case r.algorithm == backend.AlgorithmBellmanFord:
		var ok bool
		if d, ok = graphtest.BellmanFord(r.g, s); !ok {
			return nil, fmt.Errorf("a negative cycle is reachable from %d", s)
		}
	default:
		d = graphtest.Dijkstra(r.g, s)
	}
	r.took[s] = time.Since(begin)
	r.dist[s] = d
	return d, nil
}

// check compares t with the reference distances and, with parents, checks
// the tree (loops included).
func (r *reference) check(ctx context.Context, t *paths.Tree, parents bool) error {
	want, err := r.distances(ctx, t.Source)
	if err != nil {
		return err
	}
	if err := gputest.CompareDistances(t, want); err != nil {
		return err
	}
	if parents {
		return gputest.CheckTree(r.g, t)
	}
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// multiOptions lists the combinations for the multi-source run: the delta
// options with every batch size.
func (c *SSSPConfig) multiOptions(variant string) []sssp.Options {
	var all []sssp.Options
	for _, o := range c.options(variant) {
		for _, batch := range c.Batches {
			o.Batch = batch
			all = append(all, o)
		}
	}
	return all
}
