package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/config"
)

// Exit codes of the pathflow commands, documented in the README. Scheduled
// jobs can branch on them.
const (
	ExitOK          = 0   // the stage finished and its outputs are in place
	ExitInternal    = 1   // an unexpected failure (a bug): please report it
	ExitConfig      = 2   // bad flags, config file or environment variable
	ExitInput       = 3   // an input file is missing, unreadable or malformed
	ExitCompute     = 4   // the computation cannot give a correct answer (negative cycle, overflow, device)
	ExitOutput      = 5   // the outputs could not be written
	ExitSuperseded  = 7   // another run committed the output first: this run's result was dropped
	ExitNoGPU       = 8   // compute.backend is gpu but no GPU can be used here: no driver library, no device, or a build without CUDA
	ExitOutOfMemory = 9   // not enough memory: the input's sizes need more than this machine or its limits give, or the run ran out
	ExitInterrupted = 130 // SIGINT or SIGTERM: temporaries were removed
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

// ExitCode maps an error returned by a stage to the command's exit code.
func ExitCode(err error) int {
	var (
		cfgErr *config.Error
		inErr  *InputError
		cmpErr *ComputeError
		outErr *OutputError
		supErr *SupersededError
		incErr *IncompleteError
		gpuErr *NoGPUError
		memErr *NotEnoughMemoryError
	)
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &cfgErr):
		return ExitConfig
	case errors.As(err, &memErr): // before InputError, which may wrap it
		return ExitOutOfMemory
	case errors.As(err, &inErr):
		return ExitInput
	case errors.As(err, &cmpErr):
		return ExitCompute
	case errors.As(err, &supErr):
		return ExitSuperseded
	case errors.As(err, &outErr):
		return ExitOutput
	case errors.As(err, &gpuErr):
		return ExitNoGPU
	case errors.As(err, &incErr):
		return ExitIncomplete // finalize.go
	default:
		return ExitInternal
	}
}
