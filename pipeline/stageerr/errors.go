package stageerr

import (
	"fmt"
	"strings"

	"github.com/pathflow/pathflow/internal/memlimit"
)

// Stage errors carry the class that selects the exit code.
type (
	// InputError wraps a problem with an input file.
	InputError struct{ Err error }
	// ComputeError wraps a problem of the computation itself.
	ComputeError struct{ Err error }
	// OutputError wraps a problem writing results.
	OutputError struct{ Err error }
	// NoGPUError says why the GPU that compute.backend: gpu asks for cannot
	// be used: the NVIDIA driver library is missing, the driver sees no
	// device, or the build has no GPU backend.
	NoGPUError struct{ Why string }
)

// SupersededError says that another run committed the output folder Dir
// while this one ran, so this run committed nothing: the folder holds the
// other run's complete output (run Now, "" when it has no run id). It is
// no failure of the data: a scheduler that launched duplicate attempts
// can take the other's output; one that wants this run's own result runs
// it again.
type SupersededError struct {
	Dir   string
	RunID string // this run's
	Now   string // the run whose output is in place
}

func (e *SupersededError) Error() string {
	now := "another run"
	if e.Now != "" {
		now = "run " + e.Now
	}
	return fmt.Sprintf("%s was committed by %s while run %s computed: this run's result is dropped and that complete output stays; run again to replace it",
		e.Dir, now, e.RunID)
}

// Error says what is missing.
func (e *NoGPUError) Error() string {
	return "compute.backend is gpu but no GPU can be used: " + e.Why
}

func (e *InputError) Error() string   { return e.Err.Error() }
func (e *InputError) Unwrap() error   { return e.Err }
func (e *ComputeError) Error() string { return e.Err.Error() }
func (e *ComputeError) Unwrap() error { return e.Err }
func (e *OutputError) Error() string  { return e.Err.Error() }
func (e *OutputError) Unwrap() error  { return e.Err }

// NotEnoughMemoryError says that a run cannot fit the memory this machine
// gives it: the graph's declared sizes need more than is left under the
// tightest limit. It is found before the large allocations, so nothing is
// half-written and the machine is not pushed into swapping or the OOM
// killer.
type NotEnoughMemoryError struct {
	// Graph names the input and its sizes.
	Graph string
	// Need is the least the run needs beyond what is already allocated,
	// in bytes.
	Need int64
	// Limit is the tightest limit and what is left under it.
	Limit memlimit.Limit
}

func (e *NotEnoughMemoryError) Error() string {
	return fmt.Sprintf("not enough memory: %s needs at least about %s more, and there is %s; run it on a machine with more memory, or fix the sizes the input declares",
		e.Graph, memlimit.GiB(e.Need), e.Limit)
}

// IncompleteError says which shards of a dataset keep finalize from
// completing it.
type IncompleteError struct {
	Dir    string
	Shards int
	// Problems has one line per missing, stale or damaged shard and per
	// stray partition.
	Problems []string
}

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("%s is not a complete dataset of %d shards: %s; rerun those shards' tasks, then finalize again",
		e.Dir, e.Shards, strings.Join(e.Problems, "; "))
}
