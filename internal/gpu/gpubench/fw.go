//go:build cuda

package gpubench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/gputest"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// Run times every configured variant, with and without parents, and prints
// one line per measurement followed by a summary table.
func (c *FWConfig) Run(ctx context.Context, out io.Writer) error {
	b, err := gpu.New(gpu.WithDevice(c.Device), gpu.WithParentStrategy(c.Strategy), gpu.WithLookahead(c.Lookahead))
	if err != nil {
		return err
	}
	defer b.Close()
	dev := b.GPU()
	fmt.Fprintf(out, "device: %s, %d SMs\n", dev, dev.Multiprocessors())

	e, name, err := c.graph()
	if err != nil {
		return err
	}
	n := int64(e.N)
	lo, hi := e.WeightRange()
	fmt.Fprintf(out, "graph: %s: n=%d m=%d weights [%d, %d]\n", name, n, e.M(), lo, hi)

	var ceiling float64
	if c.Ceiling {
		if ceiling, err = dev.AddMinCeiling(200*time.Millisecond, 5); err != nil {
			return err
		}
		fmt.Fprintf(out, "add-min ceiling: %.2fe12/s (register-only int32 min(a+b,c), median of 5)\n", ceiling/1e12)
	}

	g := graph.BuildCSR(e)
	rows := c.sampleRows(e.N)
	var ref *paths.Matrix
	if c.Validate != "" {
		start := time.Now()
		if ref, err = b.AllPairs(ctx, e, c.algorithm(c.Validate), false); err != nil {
			return fmt.Errorf("gpubench: reference variant %s: %w", c.Validate, err)
		}
		if err := checkRows(g, ref, rows, false); err != nil {
			return fmt.Errorf("gpubench: reference variant %s: %w", c.Validate, err)
		}
		fmt.Fprintf(out, "reference: %s distances in %.2f s, %d rows equal CPU Dijkstra\n",
			c.Validate, time.Since(start).Seconds(), len(rows))
	}

	cube := float64(n) * float64(n) * float64(n)
	var table []string
	for _, variant := range c.Variants {
		for _, withParents := range c.Parents {
			res, err := c.measure(ctx, b, e, variant, withParents)
			if err != nil {
				return err
			}
			if ref != nil {
				if err := gputest.SameDistances(res.m, ref); err != nil {
					return fmt.Errorf("gpubench: %s differs from %s: %w", res.label, c.Validate, err)
				}
			}
			if err := checkRows(g, res.m, rows, withParents); err != nil {
				return fmt.Errorf("gpubench: %s: %w", res.label, err)
			}
			rate := cube / res.median.Seconds()
			share := "-"
			if ceiling > 0 {
				share = fmt.Sprintf("%.0f%%", 100*rate/ceiling)
			}
			line := fmt.Sprintf("%-26s %7d %10.4f %10.4f %10.2fe12 %8s", res.label, n, res.median.Seconds(),
				res.min.Seconds(), rate/1e12, share)
			fmt.Fprintf(out, "%s   (upload %.3f s, download %.3f s; validated)\n", line, res.upload.Seconds(), res.download.Seconds())
			table = append(table, line)
		}
	}
	fmt.Fprintf(out, "\n%-26s %7s %10s %10s %12s %8s\n", "variant", "n", "median s", "min s", "relax/s", "ceiling")
	for _, line := range table {
		fmt.Fprintln(out, line)
	}
	return nil
}

func (c *FWConfig) algorithm(variant string) backend.Algorithm {
	alg := backend.Algorithm{Name: gpu.AllPairsFamily, Variant: variant}
	if variant == gpu.VariantBlocked {
		alg.BlockSize = c.BlockSize
	}
	return alg
}

// graph builds or reads the input and names it.
func (c *FWConfig) graph() (*graph.EdgeList, string, error) {
	if c.Graph != "" {
		e, err := gputest.ReadSNAP(c.Graph)
		return e, fmt.Sprintf("%s (hash weights seed %d, %d..%d)", c.Graph, gputest.HashSeed, gputest.HashLo, gputest.HashHi), err
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

type measurement struct {
	label            string
	m                *paths.Matrix
	median, min      time.Duration
	upload, download time.Duration
}

// measure prepares one run, times Warmup + Repeats computes and downloads
// the result once.
func (c *FWConfig) measure(ctx context.Context, b *gpu.Backend, e *graph.EdgeList, variant string, withParents bool) (measurement, error) {
	start := time.Now()
	run, err := b.PrepareAllPairs(e, c.algorithm(variant), withParents)
	if err != nil {
		return measurement{}, err
	}
	defer run.Close()
	res := measurement{upload: time.Since(start), label: variant}
	if variant == gpu.VariantBlocked && c.BlockSize != 0 {
		res.label += fmt.Sprintf("/b%d", c.BlockSize)
	}
	if variant == gpu.VariantFast && !c.Lookahead {
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
			return measurement{}, fmt.Errorf("gpubench: %s: %w", res.label, err)
		}
		if i >= c.Warmup {
			times = append(times, t)
		}
	}
	slices.Sort(times)
	res.median, res.min = times[len(times)/2], times[0]
	start = time.Now()
	if res.m, err = run.Matrix(); err != nil {
		return measurement{}, err
	}
	res.download = time.Since(start)
	return res, nil
}

// checkRows compares the sampled rows with CPU Dijkstra (when the weights
// allow it) and checks them as shortest-path trees.
func checkRows(g *graph.CSR, m *paths.Matrix, rows []int32, withParents bool) error {
	lo, _ := g.WeightRange()
	for _, s := range rows {
		if lo >= 0 {
			if err := gputest.CompareRow(m, s, gputest.Dijkstra(g, s)); err != nil {
				return fmt.Errorf("against CPU Dijkstra: %w", err)
			}
		}
		if withParents {
			if err := gputest.CheckRow(g, m, s); err != nil {
				return err
			}
		}
	}
	return nil
}

// Run measures and prints the add-min ceiling.
func (c *CeilingConfig) Run(ctx context.Context, out io.Writer) error {
	dev, err := gpu.Open(c.Device)
	if err != nil {
		return err
	}
	defer dev.Close()
	rate, err := dev.AddMinCeiling(c.Duration, c.Repeats)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "device: %s, %d SMs\n", dev, dev.Multiprocessors())
	fmt.Fprintf(out, "add-min ceiling: %.3fe12/s (median of %d runs of %v)\n", rate/1e12, c.Repeats, c.Duration)
	return nil
}
