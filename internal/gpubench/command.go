package gpubench

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/pathflow/pathflow/internal/graph"
)

// Command is one gpubench subcommand.
type Command struct {
	// Summary is the one-line description for usage.
	Summary string
	// New returns a fresh configuration for the subcommand's flags.
	New func() Config
}

// Config is a subcommand's configuration: the Jaeger-style pair of flag
// registration and reading back from viper (with validation), and the run.
type Config interface {
	AddFlags(fs *pflag.FlagSet)
	InitFromViper(v *viper.Viper) error
	Run(ctx context.Context, out io.Writer, files GraphFiles) error
}

// GraphFiles reads the graph files that a subcommand's --graph flag names.
// Reading files is package formats' job, which lies above the backend
// tree and its tools; cmd/gpubench fills this in from datasets/benchgraphs.
type GraphFiles struct {
	// ReadSNAP reads a directed SNAP edge list with the weights that
	// SNAPWeights describes ("hash weights seed 42, 1..100").
	ReadSNAP    func(path string) (*graph.EdgeList, error)
	SNAPWeights string
	// ReadDIMACS reads a DIMACS .gr file, gzip-compressed or not.
	ReadDIMACS func(path string) (*graph.EdgeList, error)
}

// Commands are the subcommands by name.
var Commands = map[string]Command{
	"fw":      {Summary: "time the floyd-warshall variants", New: func() Config { return &FWConfig{} }},
	"ceiling": {Summary: "measure the int32 add-min ceiling", New: func() Config { return &CeilingConfig{} }},
	"sssp":    {Summary: "time the single-source variants (near-far, Bellman-Ford, Dijkstra)", New: func() Config { return &SSSPConfig{} }},
}

// Main runs gpubench with args (without the program name), writing results
// to out and usage or errors to errOut, reading graph files through files;
// it returns the exit code: 2 for a
// usage error, 1 when the run or writing its results fails. Writes to
// errOut are not checked: nothing would be left to report their failure.
func Main(ctx context.Context, args []string, out, errOut io.Writer, files GraphFiles) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(errOut)
		return 2
	}
	cmd, ok := Commands[args[0]]
	if !ok {
		fmt.Fprintf(errOut, "gpubench: unknown subcommand %q\n", args[0])
		usage(errOut)
		return 2
	}
	cfg, err := Parse(cmd, args[0], args[1:])
	if err != nil {
		fmt.Fprintln(errOut, err)
		return 2
	}
	results := &resultWriter{w: out}
	err = cfg.Run(ctx, results, files)
	if err == nil && results.err != nil {
		err = fmt.Errorf("gpubench %s: writing results: %w", args[0], results.err)
	}
	if err != nil {
		fmt.Fprintln(errOut, err)
		return 1
	}
	return 0
}

// resultWriter keeps the first error writing results, so that the many
// prints of a run need not check theirs one by one; later writes fail
// with it too.
type resultWriter struct {
	w   io.Writer
	err error
}

// Write writes p unless an earlier write failed.
func (r *resultWriter) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.w.Write(p)
	r.err = err
	return n, err
}

// Parse reads a subcommand's flags into its configuration and validates it.
func Parse(cmd Command, name string, args []string) (Config, error) {
	cfg := cmd.New()
	fs := pflag.NewFlagSet("gpubench "+name, pflag.ContinueOnError)
	cfg.AddFlags(fs)
	if err := fs.Parse(longFlags(args)); err != nil {
		return nil, fmt.Errorf("gpubench %s: %w", name, err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("gpubench %s: unexpected arguments %q", name, fs.Args())
	}
	v := viper.New()
	if err := v.BindPFlags(fs); err != nil {
		return nil, fmt.Errorf("gpubench %s: %w", name, err)
	}
	if err := cfg.InitFromViper(v); err != nil {
		return nil, fmt.Errorf("gpubench %s: %w", name, err)
	}
	return cfg, nil
}

// longFlags rewrites single-dash long flags (-n=5, -parents) into pflag's
// double-dash form, so gpubench takes flags as the other commands do.
// The subcommands define no one-letter shorthands, and "--" ends the
// flags.
func longFlags(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "--" {
			copy(out[i:], args[i:])
			break
		}
		// A dash before a digit is a negative value, not a flag.
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && (a[1] < '0' || a[1] > '9') {
			a = "-" + a
		}
		out[i] = a
	}
	return out
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: gpubench <subcommand> [flags]   (gpubench <subcommand> -h for its flags)")
	names := make([]string, 0, len(Commands))
	for name := range Commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-8s %s\n", name, Commands[name].Summary)
	}
	fmt.Fprintln(w, strings.TrimSpace(`
Needs a CUDA build (go build -tags cuda ./cmd/gpubench).`))
}
