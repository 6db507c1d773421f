package gpubench

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/pathflow/pathflow/internal/gpu/sssp"
)

// Flag names of the sssp subcommand.
const (
	ssspFlagGraph       = "graph"
	ssspFlagSide        = "side"
	ssspFlagN           = "n"
	ssspFlagDegree      = "degree"
	ssspFlagLo          = "lo"
	ssspFlagHi          = "hi"
	ssspFlagSeed        = "seed"
	ssspFlagVariants    = "variants"
	ssspFlagSources     = "sources"
	ssspFlagMulti       = "multi"
	ssspFlagParents     = "parents"
	ssspFlagDelta       = "delta"
	ssspFlagDeltaFactor = "delta-factor"
	ssspFlagBlocks      = "blocks"
	ssspFlagLocalRounds = "local-rounds"
	ssspFlagBatch       = "batch"
	ssspFlagBlockSize   = "block-size"
	ssspFlagWarmup      = "warmup"
	ssspFlagRepeats     = "repeats"
	ssspFlagValidate    = "validate"
	ssspFlagCPU         = "cpu"
	ssspFlagDevice      = "device"
)

// SSSPConfig configures the sssp subcommand, which times the
// single-source variants:
//
//	gpubench sssp --graph=grid --side=512 --sources=corner,center --multi=1024
//	gpubench sssp --graph=degree --n=1000000 --variants=near-far,bf-flags
//	gpubench sssp --graph=rome99.gr --variants=near-far,dijkstra --parents
type SSSPConfig struct {
	// Graph is "grid" (Side x Side, road-like), "degree" (N vertices of
	// out-degree Degree) or the path of a DIMACS .gr or SNAP file (SNAP
	// with the hash weights, seed 42, 1..100).
	Graph        string
	Side, N      int32
	Degree       int
	Lo, Hi       int32
	Seed         uint64
	Variants     []string
	Sources      []string
	Multi        int
	Parents      bool
	Deltas       []int64
	DeltaFactors []float64
	Blocks       []int
	LocalRounds  []int
	Batches      []int
	BlockSizes   []int
	Warmup       int
	Repeats      int
	Validate     bool
	CPU          bool
	Device       int
}

// AddFlags registers the sssp flags.
func (c *SSSPConfig) AddFlags(fs *pflag.FlagSet) {
	fs.String(ssspFlagGraph, "grid", "grid, degree, or a DIMACS .gr / SNAP edge-list file")
	fs.Int32(ssspFlagSide, 512, "side of the generated grid")
	fs.Int32(ssspFlagN, 1_000_000, "vertices of the generated degree graph")
	fs.Int(ssspFlagDegree, 7, "out-degree of the generated degree graph")
	fs.Int32(ssspFlagLo, 1, "smallest generated weight")
	fs.Int32(ssspFlagHi, 1000, "largest generated weight")
	fs.Uint64(ssspFlagSeed, 1, "generator and source seed (0: a fresh one, printed)")
	fs.String(ssspFlagVariants, sssp.VariantNearFar, "comma-separated variants: "+strings.Join(sssp.Variants, ", "))
	fs.String(ssspFlagSources, "corner,center", "single-source runs: vertex ids, corner (0), center, random")
	fs.Int(ssspFlagMulti, 0, "also solve this many random sources in one multi-source run (0: none)")
	fs.Bool(ssspFlagParents, false, "compute parents too")
	fs.String(ssspFlagDelta, "0", "comma-separated near-far deltas (0: delta-factor x mean weight)")
	fs.String(ssspFlagDeltaFactor, "0", "comma-separated multiples of the mean weight for delta 0 (0: the default)")
	fs.String(ssspFlagBlocks, "0", "comma-separated near-far blocks per source (0: auto)")
	fs.String(ssspFlagLocalRounds, "0", "comma-separated near-far rounds within a block per step (0: default, -1: none)")
	fs.String(ssspFlagBatch, "0", "comma-separated near-far sources per launch for the multi-source run (0: auto)")
	fs.String(ssspFlagBlockSize, "0", "comma-separated threads per block (0: default)")
	fs.Int(ssspFlagWarmup, 1, "untimed solves before timing")
	fs.Int(ssspFlagRepeats, 5, "timed solves; the median is reported")
	fs.Bool(ssspFlagValidate, true, "check every timed result against CPU Dijkstra (Bellman-Ford for negative weights)")
	fs.Bool(ssspFlagCPU, true, "time the CPU from the same sources for the ratio (the CPU backend when linked, else the plain reference)")
	fs.Int(ssspFlagDevice, 0, "GPU ordinal")
}

// InitFromViper reads and validates the sssp flags.
func (c *SSSPConfig) InitFromViper(v *viper.Viper) error {
	c.Graph = v.GetString(ssspFlagGraph)
	c.Side, c.N, c.Degree = v.GetInt32(ssspFlagSide), v.GetInt32(ssspFlagN), v.GetInt(ssspFlagDegree)
	c.Lo, c.Hi = v.GetInt32(ssspFlagLo), v.GetInt32(ssspFlagHi)
	c.Seed = v.GetUint64(ssspFlagSeed)
	c.Multi = v.GetInt(ssspFlagMulti)
	c.Parents = v.GetBool(ssspFlagParents)
	c.Warmup, c.Repeats = v.GetInt(ssspFlagWarmup), v.GetInt(ssspFlagRepeats)
	c.Validate, c.CPU = v.GetBool(ssspFlagValidate), v.GetBool(ssspFlagCPU)
	c.Device = v.GetInt(ssspFlagDevice)
	var errs []error
	switch c.Graph {
	case "grid":
		if c.Side < 1 {
			errs = append(errs, fmt.Errorf("--side %d: want at least 1", c.Side))
		}
	case "degree":
		if c.N < 2 || c.Degree < 1 {
			errs = append(errs, fmt.Errorf("--n %d --degree %d: want n >= 2 and degree >= 1", c.N, c.Degree))
		}
	case "":
		errs = append(errs, errors.New("--graph: want grid, degree or a file"))
	}
	if c.Lo > c.Hi {
		errs = append(errs, fmt.Errorf("--lo %d > --hi %d", c.Lo, c.Hi))
	}
	var bad []error
	c.Variants, bad = parseVariants(v.GetString(ssspFlagVariants), sssp.Variants)
	errs = append(errs, bad...)
	errs = append(errs, c.readSources(v)...)
	errs = append(errs, c.readLists(v)...)
	if c.Repeats < 1 || c.Warmup < 0 || c.Multi < 0 {
		errs = append(errs, errors.New("need repeats >= 1, warmup >= 0, multi >= 0"))
	}
	return errors.Join(errs...)
}

// readSources reads the --sources words, checking the vertex ids.
func (c *SSSPConfig) readSources(v *viper.Viper) []error {
	var errs []error
	c.Sources = nil
	for _, s := range strings.Split(v.GetString(ssspFlagSources), ",") {
		switch s = strings.TrimSpace(s); s {
		case "":
		case "corner", "center", "random":
			c.Sources = append(c.Sources, s)
		default:
			if _, err := strconv.ParseInt(s, 10, 32); err != nil {
				errs = append(errs, fmt.Errorf("--sources %q: want vertex ids, corner, center or random", s))
			}
			c.Sources = append(c.Sources, s)
		}
	}
	return errs
}

// readLists reads the comma-separated parameter lists of the near-far
// options.
func (c *SSSPConfig) readLists(v *viper.Viper) []error {
	var errs []error
	var err error
	if c.Deltas, err = parseList(v.GetString(ssspFlagDelta), func(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) }, 0); err != nil {
		errs = append(errs, fmt.Errorf("--delta: %w", err))
	}
	if c.DeltaFactors, err = parseList(v.GetString(ssspFlagDeltaFactor), func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }, 0); err != nil {
		errs = append(errs, fmt.Errorf("--delta-factor: %w", err))
	}
	if c.Blocks, err = parseList(v.GetString(ssspFlagBlocks), strconv.Atoi, 0); err != nil {
		errs = append(errs, fmt.Errorf("--blocks: %w", err))
	}
	if c.LocalRounds, err = parseList(v.GetString(ssspFlagLocalRounds), strconv.Atoi, -1); err != nil {
		errs = append(errs, fmt.Errorf("--local-rounds: %w", err))
	}
	if c.BlockSizes, err = parseList(v.GetString(ssspFlagBlockSize), strconv.Atoi, 0); err != nil {
		errs = append(errs, fmt.Errorf("--block-size: %w", err))
	}
	if c.Batches, err = parseList(v.GetString(ssspFlagBatch), strconv.Atoi, 0); err != nil {
		errs = append(errs, fmt.Errorf("--batch: %w", err))
	}
	return errs
}

// options lists the parameter combinations to time for a variant.
func (c *SSSPConfig) options(variant string) []sssp.Options {
	var all []sssp.Options
	for _, bs := range c.BlockSizes {
		base := sssp.Options{ThreadsPerBlock: bs}
		if variant != sssp.VariantNearFar {
			all = append(all, base)
			continue
		}
		for _, d := range c.Deltas {
			factors := c.DeltaFactors
			if d != 0 {
				factors = []float64{0}
			}
			for _, f := range factors {
				for _, blocks := range c.Blocks {
					for _, rounds := range c.LocalRounds {
						o := base
						o.Delta, o.DeltaFactor, o.BlocksPerSource, o.LocalRounds = d, f, blocks, rounds
						all = append(all, o)
					}
				}
			}
		}
	}
	return all
}

// parseList parses a comma-separated list of numbers, none below least.
func parseList[T int | int64 | float64](s string, parse func(string) (T, error), least T) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		x, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		if x < least {
			return nil, fmt.Errorf("value %v below %v", x, least)
		}
		out = append(out, x)
	}
	return out, nil
}
