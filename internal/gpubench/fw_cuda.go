//go:build cuda

package gpubench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/gputest"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/results"
)

// Run times every configured variant, with and without parents: the
// kernels (CUDA events), streaming every row to a sink that releases each
// block at once (GB/s by the wall clock and by the copy stream's events),
// and one whole Backend.Run. It prints one line per measurement followed
// by a summary table.
func (c *FWConfig) Run(ctx context.Context, out io.Writer, files GraphFiles) (err error) {
	b, err := c.open(gpu.WithDevices(c.Devices), gpu.WithMemoryLimit(c.MemoryLimit))
	if err != nil {
		return err
	}
	defer closeInto(&err, b)
	dev := b.GPU()
	fmt.Fprintf(out, "device: %s, %d SMs, %s\n", b.Device(), dev.Multiprocessors(), time.Now().UTC().Format("2006-01-02"))
	if c.MemoryLimit > 0 {
		fmt.Fprintf(out, "memory limit: %d bytes per device\n", c.MemoryLimit)
	}

	e, name, err := c.graph(files)
	if err != nil {
		return err
	}
	lo, hi := e.WeightRange()
	fmt.Fprintf(out, "graph: %s: n=%d m=%d weights [%d, %d]\n", name, e.N, e.M(), lo, hi)
	fmt.Fprintf(out, "staging: %d pinned blocks of %d MiB of distances\n", c.StagingBlocks, c.StagingMiB)

	var ceiling float64
	if c.Ceiling {
		if ceiling, err = dev.AddMinCeiling(200*time.Millisecond, 5); err != nil {
			return err
		}
		fmt.Fprintf(out, "add-min ceiling: %.2fe12/s (register-only int32 min(a+b,c), median of 5)\n", ceiling/1e12)
	}

	v := newValidator(graph.BuildCSR(e), c.sampleRows(e.N))
	if c.Validate != "" {
		start := time.Now()
		if err := c.validate(ctx, b, e, c.Validate, false, v, true); err != nil {
			return fmt.Errorf("gpubench: reference variant %s: %w", c.Validate, err)
		}
		fmt.Fprintf(out, "reference: %s distances in %.2f s, %d rows equal CPU Dijkstra\n",
			c.Validate, time.Since(start).Seconds(), len(v.rows))
	}
	table, err := c.measureAll(ctx, out, b, e, v, ceiling)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\n%-26s %7s %10s %10s %12s %8s %9s %9s\n", "variant", "n", "median s", "min s", "relax/s", "ceiling", "D2H GB/s", "copy GB/s")
	for _, line := range table {
		fmt.Fprintln(out, line)
	}
	return nil
}

// open opens a backend with the run's options and extra ones.
func (c *FWConfig) open(extra ...gpu.Option) (*gpu.Backend, error) {
	return gpu.New(append([]gpu.Option{gpu.WithParentStrategy(c.Strategy), gpu.WithLookahead(c.Lookahead),
		gpu.WithStaging(c.StagingBlocks, int64(c.StagingMiB)<<20)}, extra...)...)
}

// measureAll measures and validates every variant with and without
// parents, printing a line for each with the upload, stream and Run
// figures, and returns the lines of the summary table. ceiling is the
// add-min ceiling, 0 when not measured.
func (c *FWConfig) measureAll(ctx context.Context, out io.Writer, b *gpu.Backend, e *graph.EdgeList, v *validator, ceiling float64) ([]string, error) {
	n := int64(e.N)
	cube := float64(n) * float64(n) * float64(n)
	var table []string
	for _, variant := range c.Variants {
		for _, withParents := range c.Parents {
			res, err := c.measure(ctx, b, e, variant, withParents)
			if err != nil {
				return nil, err
			}
			if err := c.validate(ctx, b, e, variant, withParents, v, false); err != nil {
				return nil, fmt.Errorf("gpubench: %s: %w", res.label, err)
			}
			rate := cube / res.median.Seconds()
			share := "-"
			if ceiling > 0 {
				share = fmt.Sprintf("%.0f%%", 100*rate/ceiling)
			}
			line := fmt.Sprintf("%-26s %7d %10.4f %10.4f %10.2fe12 %8s %9.1f %9.1f", res.label, n, res.median.Seconds(),
				res.min.Seconds(), rate/1e12, share, res.stream.Rate(), res.stream.CopyRate())
			fmt.Fprintf(out, "%s   (upload %.3f s; stream %s; Run %.3f s; validated)\n", line, res.upload.Seconds(), res.stream, res.run.Seconds())
			fmt.Fprintf(out, "  placed: %s; per compute: host->device %s, device->host %s, device->device %s\n",
				res.placement, gigabytes(res.traffic.HostToDevice), gigabytes(res.traffic.DeviceToHost), gigabytes(res.traffic.DeviceToDevice))
			if c.spread() && c.Scaling {
				one, err := c.oneDevice(ctx, e, variant, withParents)
				if err != nil {
					return nil, err
				}
				fmt.Fprintf(out, "  scaling: %.2fx one GPU in core (%.4f s, %.2fe12 relax/s there)\n",
					one.Seconds()/res.median.Seconds(), one.Seconds(), cube/one.Seconds()/1e12)
			}
			table = append(table, line)
		}
	}
	return table, nil
}

// closeInto closes c and joins its error, if any, to *err. Deferred as
// defer closeInto(&err, b), it reports a failed close without hiding the
// error being returned.
func closeInto(err *error, c io.Closer) {
	if cerr := c.Close(); cerr != nil {
		*err = errors.Join(*err, cerr)
	}
}

func (c *FWConfig) algorithm(variant string) backend.Algorithm {
	alg := backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: variant}
	if variant == allpairs.VariantBlocked {
		alg.TileEdge = c.TileEdge
	}
	return alg
}

// graph builds or reads the input and names it.
func (c *FWConfig) graph(files GraphFiles) (*graph.EdgeList, string, error) {
	if c.Graph != "" {
		e, err := files.ReadSNAP(c.Graph)
		return e, fmt.Sprintf("%s (%s)", c.Graph, files.SNAPWeights), err
	}
	seed := c.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	e, err := generate.ErdosRenyi(c.N, c.P, c.Lo, c.Hi, seed)
	return e, fmt.Sprintf("erdos-renyi p=%g seed %d", c.P, seed), err
}

// sampleRows picks the rows checked on the CPU: the first, the last and
// random ones between.
func (c *FWConfig) sampleRows(n int32) []int32 {
	rows := []int32{0, n - 1}
	r := rand.New(rand.NewPCG(uint64(n), 1))
	for len(rows) < min(c.CheckRows, int(n)) {
		if s := r.Int32N(n); !slices.Contains(rows, s) {
			rows = append(rows, s)
		}
	}
	return rows[:min(len(rows), c.CheckRows)]
}

// timeComputes prepares one run and times Warmup + Repeats computes; the
// run is left open for the caller to close.
func (c *FWConfig) timeComputes(ctx context.Context, b *gpu.Backend, e *graph.EdgeList, variant string, withParents bool) (measurement, *allpairs.Run, error) {
	start := time.Now()
	run, err := b.PrepareAllPairs(e, c.algorithm(variant), withParents)
	if err != nil {
		return measurement{}, nil, err
	}
	res := measurement{upload: time.Since(start), label: variant, placement: run.Describe()}
	if variant == allpairs.VariantBlocked && c.TileEdge != 0 {
		res.label += fmt.Sprintf("/b%d", c.TileEdge)
	}
	if variant == allpairs.VariantFast && !c.Lookahead {
		res.label += "/1s"
	}
	if withParents {
		res.label += " parents(" + run.ParentMethod() + ")"
	} else {
		res.label += " dist"
	}
	var times []time.Duration
	for i := 0; i < c.Warmup+c.Repeats; i++ {
		t, err := run.Compute(ctx)
		if err != nil {
			return measurement{}, nil, errors.Join(fmt.Errorf("gpubench: %s: %w", res.label, err), run.Close())
		}
		if i >= c.Warmup {
			times = append(times, t)
		}
	}
	slices.Sort(times)
	res.median, res.min = times[len(times)/2], times[0]
	res.traffic = run.Traffic()
	return res, run, nil
}

// oneDevice is the median compute time of the same run on the first
// device alone, in core.
func (c *FWConfig) oneDevice(ctx context.Context, e *graph.EdgeList, variant string, withParents bool) (_ time.Duration, err error) {
	first := 0
	if len(c.Devices) > 0 {
		first = c.Devices[0]
	}
	b, err := c.open(gpu.WithDevice(first))
	if err != nil {
		return 0, err
	}
	defer closeInto(&err, b)
	res, run, err := c.timeComputes(ctx, b, e, variant, withParents)
	if err != nil {
		return 0, err
	}
	return res.median, run.Close()
}

// gigabytes formats a byte count in GB.
func gigabytes(b int64) string { return fmt.Sprintf("%.2f GB", float64(b)/1e9) }

type measurement struct {
	label string
	// placement describes where the matrix lived; traffic what one
	// compute moved.
	placement   string
	traffic     allpairs.Traffic
	median, min time.Duration
	upload, run time.Duration
	// stream is the median-rate stream of every row to a sink that
	// releases at once.
	stream device.StreamStats
}

// measure prepares one run, times Warmup + Repeats computes, then Warmup
// + Repeats streams of every row to a sink that releases at once, then one
// whole Backend.Run with that sink.
func (c *FWConfig) measure(ctx context.Context, b *gpu.Backend, e *graph.EdgeList, variant string, withParents bool) (_ measurement, err error) {
	res, run, err := c.timeComputes(ctx, b, e, variant, withParents)
	if err != nil {
		return measurement{}, err
	}
	// Frees the run's memory on the error paths; after the explicit Close
	// below it does nothing.
	defer closeInto(&err, run)
	all := allVertices(e.N)
	var streams []device.StreamStats
	for i := 0; i < c.Warmup+c.Repeats; i++ {
		st, err := run.Stream(ctx, all, releaseAtOnce)
		if err != nil {
			return measurement{}, fmt.Errorf("gpubench: %s: streaming: %w", res.label, err)
		}
		if i >= c.Warmup {
			streams = append(streams, st)
		}
	}
	slices.SortFunc(streams, func(a, b device.StreamStats) int { return cmp.Compare(a.Wall, b.Wall) })
	res.stream = streams[len(streams)/2]

	// The whole Run allocates its own matrix.
	if err := run.Close(); err != nil {
		return measurement{}, err
	}
	if !c.WholeRun {
		return res, nil
	}
	choice := backend.Choice{Algorithm: c.algorithm(variant), AllPairs: true}
	req := backend.Request{Shape: results.Shape{Sources: all, Columns: results.ColumnsOf().With(results.Parent, withParents), MaxDistance: results.NoCutoff}, Edges: e, Choice: choice}
	start := time.Now()
	if err := b.Run(ctx, req, releaseAtOnce); err != nil {
		return measurement{}, fmt.Errorf("gpubench: %s: Run: %w", res.label, err)
	}
	res.run = time.Since(start)
	return res, nil
}

// releaseAtOnce is a sink that hands every block straight back.
func releaseAtOnce(r *results.Rows) error {
	r.Release()
	return nil
}

func allVertices(n int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// validator checks streamed rows: sampled rows against CPU Dijkstra (when
// the weights allow it) and as shortest-path trees, and every row's hash
// against the reference variant's.
type validator struct {
	g    *graph.CSR
	rows []int32
	want map[int32][]int64
	// hashes are the reference's row hashes by source, nil before it ran.
	hashes []uint64
}

func newValidator(g *graph.CSR, rows []int32) *validator {
	v := &validator{g: g, rows: rows, want: map[int32][]int64{}}
	if lo, _ := g.WeightRange(); lo >= 0 {
		for _, s := range rows {
			v.want[s] = graphtest.Dijkstra(g, s)
		}
	}
	return v
}

// validate computes variant and streams every row through the checks;
// the reference run (reference true) records the row hashes the later
// runs must match.
func (c *FWConfig) validate(ctx context.Context, b *gpu.Backend, e *graph.EdgeList, variant string, withParents bool,
	v *validator, reference bool) (err error) {
	run, err := b.PrepareAllPairs(e, c.algorithm(variant), withParents)
	if err != nil {
		return err
	}
	defer closeInto(&err, run)
	if _, err := run.Compute(ctx); err != nil {
		return err
	}
	if reference {
		v.hashes = make([]uint64, e.N)
	}
	sampled := map[int32]bool{}
	for _, s := range v.rows {
		sampled[s] = true
	}
	var mu sync.Mutex
	seen := 0
	sink := func(r *results.Rows) error {
		defer r.Release()
		err := gputest.ForEach(r.Len(), func(i int) error {
			s := r.Sources[i]
			h := gputest.RowHash(r, i)
			switch {
			case reference:
				v.hashes[s] = h
			case v.hashes != nil && v.hashes[s] != h:
				return fmt.Errorf("row %d differs from the reference variant's", s)
			}
			if !sampled[s] {
				return nil
			}
			t := r.Tree(i).Copy()
			if want, ok := v.want[s]; ok {
				if err := gputest.CompareDistances(t, want); err != nil {
					return fmt.Errorf("against CPU Dijkstra: %w", err)
				}
			}
			if withParents {
				return gputest.CheckTree(v.g, t)
			}
			return nil
		})
		mu.Lock()
		seen += r.Len()
		mu.Unlock()
		return err
	}
	if _, err := run.Stream(ctx, allVertices(e.N), sink); err != nil {
		return err
	}
	if seen != int(e.N) {
		return fmt.Errorf("%d rows streamed, want %d", seen, e.N)
	}
	return nil
}

// Run measures and prints the add-min ceiling.
func (c *CeilingConfig) Run(ctx context.Context, out io.Writer, _ GraphFiles) (err error) {
	dev, err := device.Open(c.Device)
	if err != nil {
		return err
	}
	defer closeInto(&err, dev)
	rate, err := dev.AddMinCeiling(c.Duration, c.Repeats)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "device: %s, %d SMs\n", dev, dev.Multiprocessors())
	fmt.Fprintf(out, "add-min ceiling: %.3fe12/s (median of %d runs of %v)\n", rate/1e12, c.Repeats, c.Duration)
	return nil
}

// spread reports whether the run may leave one device's memory: several
// devices or a memory limit.
func (c *FWConfig) spread() bool { return len(c.Devices) != 1 || c.MemoryLimit > 0 }
