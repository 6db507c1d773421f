package gpubench

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"
)

// Flag names of the fw and ceiling subcommands.
const (
	flagN         = "n"
	flagP         = "p"
	flagLo        = "lo"
	flagHi        = "hi"
	flagSeed      = "seed"
	flagGraph     = "graph"
	flagVariants  = "variants"
	flagParents   = "parents"
	flagStrategy  = "strategy"
	flagBlockSize = "block-size"
	flagRepeats   = "repeats"
	flagWarmup    = "warmup"
	flagValidate  = "validate"
	flagCheckRows = "check-rows"
	flagCeiling   = "ceiling"
	flagDevice    = "device"
	flagDevices   = "devices"
	flagMemLimit  = "memory-limit"
	flagScaling   = "scaling"
	flagWholeRun  = "whole-run"
	flagDuration  = "duration"
	flagLookahead = "lookahead"
	flagStaging   = "staging-blocks"
	flagBlockMiB  = "staging-mib"
)

// FWConfig configures the fw subcommand.
type FWConfig struct {
	// N and P shape the Erdos-Renyi graph; Lo and Hi bound its weights.
	N      int32
	P      float64
	Lo, Hi int32
	// Seed of the generator; 0 draws a fresh one (printed).
	Seed uint64
	// Graph, when set, is a SNAP edge list read with the hash weights
	// (seed 42, 1..100) instead of a generated graph.
	Graph string
	// Variants to time, in order.
	Variants []string
	// Parents: which of distances-only (false) and with-parents (true) to time.
	Parents []bool
	// Strategy for the fast variant's parents.
	Strategy allpairs.ParentStrategy
	// TileEdge for the blocked variant (0: default).
	TileEdge int
	// Warmup and Repeats: untimed then timed runs; the median is reported.
	Warmup, Repeats int
	// Validate names the variant whose distances every result must equal
	// ("" for none); CheckRows is how many rows to check against CPU
	// Dijkstra and, with parents, as shortest-path trees.
	Validate  string
	CheckRows int
	// Ceiling: measure the add-min ceiling and print each rate's share.
	Ceiling bool
	// Device is the GPU ordinal.
	Device int
	// Devices, when set, are the GPUs of a multi-device run
	// (gpu.WithDevices; an ordinal may repeat), Device being ignored.
	Devices []int
	// MemoryLimit caps the device memory per device (gpu.WithMemoryLimit);
	// a matrix over it runs out of core.
	MemoryLimit int64
	// Scaling also times the one-device in-core run of the first device
	// and reports the ratio, when Devices or MemoryLimit spread the run.
	Scaling bool
	// WholeRun also times one whole Backend.Run per measurement.
	WholeRun bool
	// Lookahead: the fast variant's two-stream schedule (gpu.WithLookahead).
	Lookahead bool
	// StagingBlocks and StagingMiB shape the pinned blocks rows stream
	// through (gpu.WithStaging; MiB of distances per block).
	StagingBlocks, StagingMiB int
}

// AddFlags registers the fw flags.
func (c *FWConfig) AddFlags(fs *pflag.FlagSet) {
	fs.Int32(flagN, 16384, "vertices of the generated Erdos-Renyi graph")
	fs.Float64(flagP, 0.001, "arc probability of the generated graph")
	fs.Int32(flagLo, 1, "smallest generated weight")
	fs.Int32(flagHi, 100, "largest generated weight")
	fs.Uint64(flagSeed, 0, "generator seed (0: a fresh one, printed)")
	fs.String(flagGraph, "", "SNAP edge list to use instead of a generated graph (hash weights, seed 42, 1..100)")
	fs.String(flagVariants, allpairs.VariantFast, "comma-separated variants to time: "+strings.Join(allpairs.Variants, ", "))
	fs.String(flagParents, "both", "none (distances only), with, or both")
	fs.String(flagStrategy, "auto", "parents of the fast variant: auto, track or recover")
	fs.Int(flagBlockSize, 0, "tile edge of the blocked variant (0: default)")
	fs.Int(flagWarmup, 1, "untimed runs before timing")
	fs.Int(flagRepeats, 5, "timed runs; the median is reported")
	fs.String(flagValidate, allpairs.VariantBlocked, "variant whose distances every result must equal (none: skip)")
	fs.Int(flagCheckRows, 16, "rows checked against CPU Dijkstra and as shortest-path trees")
	fs.Bool(flagCeiling, true, "measure the int32 add-min ceiling and report each rate's share of it")
	fs.Int(flagDevice, 0, "GPU ordinal")
	fs.String(flagDevices, "", "comma-separated GPU ordinals of a multi-device run (repeats allowed: 0,0), or all; overrides --device")
	fs.String(flagMemLimit, "0", "device memory per device a run may use, e.g. 4GiB (0: the device's); larger matrices run out of core")
	fs.Bool(flagScaling, true, "with --devices or --memory-limit, also time one GPU in core and report the ratio")
	fs.Bool(flagWholeRun, true, "also time one whole Backend.Run (a second prepare and compute)")
	fs.Bool(flagLookahead, true, "overlap the fast variant's rounds on two streams")
	fs.Int(flagStaging, gpu.DefaultStagingBlocks, "pinned host blocks the rows stream through")
	fs.Int(flagBlockMiB, gpu.DefaultStagingBytes>>20, "MiB of distances per pinned block (as much again of parents)")
}

// InitFromViper reads and validates the fw flags.
func (c *FWConfig) InitFromViper(v *viper.Viper) error {
	c.N = v.GetInt32(flagN)
	c.P = v.GetFloat64(flagP)
	c.Lo, c.Hi = v.GetInt32(flagLo), v.GetInt32(flagHi)
	c.Seed = v.GetUint64(flagSeed)
	c.Graph = v.GetString(flagGraph)
	c.TileEdge = v.GetInt(flagBlockSize)
	c.Warmup, c.Repeats = v.GetInt(flagWarmup), v.GetInt(flagRepeats)
	c.CheckRows = v.GetInt(flagCheckRows)
	c.Ceiling = v.GetBool(flagCeiling)
	c.Device = v.GetInt(flagDevice)
	c.Lookahead = v.GetBool(flagLookahead)
	c.StagingBlocks, c.StagingMiB = v.GetInt(flagStaging), v.GetInt(flagBlockMiB)
	c.Scaling, c.WholeRun = v.GetBool(flagScaling), v.GetBool(flagWholeRun)
	var errs []error
	var err error
	if c.Devices, err = parseDevices(v.GetString(flagDevices), c.Device); err != nil {
		errs = append(errs, err)
	}
	if c.MemoryLimit, err = config.ParseByteSize(v.GetString(flagMemLimit)); err != nil {
		errs = append(errs, fmt.Errorf("--%s: %w", flagMemLimit, err))
	}
	if c.Graph == "" && (c.N < 1 || !(c.P >= 0 && c.P <= 1) || c.Lo > c.Hi) {
		errs = append(errs, fmt.Errorf("need n >= 1, 0 <= p <= 1 and lo <= hi (have %d, %v, %d, %d)", c.N, c.P, c.Lo, c.Hi))
	}
	var bad []error
	c.Variants, bad = parseVariants(v.GetString(flagVariants), allpairs.Variants)
	errs = append(errs, bad...)
	switch p := v.GetString(flagParents); p {
	case "none":
		c.Parents = []bool{false}
	case "with":
		c.Parents = []bool{true}
	case "both":
		c.Parents = []bool{false, true}
	default:
		errs = append(errs, fmt.Errorf("--parents %q: want none, with or both", p))
	}
	switch s := v.GetString(flagStrategy); s {
	case "auto":
		c.Strategy = allpairs.ParentsAuto
	case "track":
		c.Strategy = allpairs.ParentsTrack
	case "recover":
		c.Strategy = allpairs.ParentsRecover
	default:
		errs = append(errs, fmt.Errorf("--strategy %q: want auto, track or recover", s))
	}
	switch c.Validate = v.GetString(flagValidate); {
	case c.Validate == "none":
		c.Validate = ""
	case !slices.Contains(allpairs.Variants, c.Validate):
		errs = append(errs, fmt.Errorf("--validate %q: want none or a variant", c.Validate))
	}
	if c.Repeats < 1 || c.Warmup < 0 || c.CheckRows < 0 {
		errs = append(errs, fmt.Errorf("need repeats >= 1, warmup >= 0, check-rows >= 0"))
	}
	if c.StagingBlocks < 2 || c.StagingMiB < 1 {
		errs = append(errs, fmt.Errorf("need staging-blocks >= 2 and staging-mib >= 1"))
	}
	return errors.Join(errs...)
}

// parseDevices reads --devices: "" is just device, "all" every visible
// one (nil), else comma-separated ordinals.
func parseDevices(text string, device int) ([]int, error) {
	switch text = strings.TrimSpace(text); text {
	case "":
		return []int{device}, nil
	case "all":
		return nil, nil
	}
	var ordinals []int
	for _, f := range strings.Split(text, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || d < 0 {
			return nil, fmt.Errorf("--%s %q: want all or comma-separated ordinals >= 0", flagDevices, text)
		}
		ordinals = append(ordinals, d)
	}
	return ordinals, nil
}

// CeilingConfig configures the ceiling subcommand.
type CeilingConfig struct {
	// Duration of each timed repeat.
	Duration time.Duration
	// Repeats: the median is reported.
	Repeats int
	// Device is the GPU ordinal.
	Device int
}

// AddFlags registers the ceiling flags.
func (c *CeilingConfig) AddFlags(fs *pflag.FlagSet) {
	fs.Duration(flagDuration, 200*time.Millisecond, "length of each timed run")
	fs.Int(flagRepeats, 5, "timed runs; the median is reported")
	fs.Int(flagDevice, 0, "GPU ordinal")
}

// InitFromViper reads and validates the ceiling flags.
func (c *CeilingConfig) InitFromViper(v *viper.Viper) error {
	c.Duration, c.Repeats, c.Device = v.GetDuration(flagDuration), v.GetInt(flagRepeats), v.GetInt(flagDevice)
	if c.Duration <= 0 || c.Repeats < 1 {
		return fmt.Errorf("need a positive duration and repeats >= 1")
	}
	return nil
}

// parseVariants splits a comma-separated list of variant names, keeping
// those in known, in order, and an error for each other one.
func parseVariants(list string, known []string) (names []string, errs []error) {
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); !slices.Contains(known, name) {
			errs = append(errs, fmt.Errorf("unknown variant %q (have %s)", name, strings.Join(known, ", ")))
			continue
		}
		names = append(names, name)
	}
	return names, errs
}
