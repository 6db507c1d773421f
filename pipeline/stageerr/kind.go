package stageerr

import (
	"context"
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/config"
)

// Kind is the class of an error a stage returns. The commands map each
// kind to an exit code, so a scheduled job can branch on it; a stage asks
// for the kind to tell a classified error from an unexpected one.
type Kind int

// The kinds of stage errors, in the order KindOf tests them.
const (
	None        Kind = iota // no error: the stage finished
	Internal                // an unexpected failure (a bug)
	Interrupted             // the context was canceled (SIGINT or SIGTERM)
	Config                  // a *config.Error: bad flags, config file or environment variable
	OutOfMemory             // a *NotEnoughMemoryError
	Input                   // an *InputError
	Compute                 // a *ComputeError
	Superseded              // a *SupersededError
	Output                  // an *OutputError
	NoGPU                   // a *NoGPUError
	Incomplete              // an *IncompleteError
)

// KindOf classifies err by the first kind it wraps, in the order of the
// Kind constants: a *NotEnoughMemoryError counts as OutOfMemory even when
// an *InputError wraps it. An error of no known kind is Internal.
func KindOf(err error) Kind {
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
		return None
	case errors.Is(err, context.Canceled):
		return Interrupted
	case errors.As(err, &cfgErr):
		return Config
	case errors.As(err, &memErr): // before InputError, which may wrap it
		return OutOfMemory
	case errors.As(err, &inErr):
		return Input
	case errors.As(err, &cmpErr):
		return Compute
	case errors.As(err, &supErr):
		return Superseded
	case errors.As(err, &outErr):
		return Output
	case errors.As(err, &gpuErr):
		return NoGPU
	case errors.As(err, &incErr):
		return Incomplete
	default:
		return Internal
	}
}

// String names the kind, as tests and logs show it.
func (k Kind) String() string {
	switch k {
	case None:
		return "none"
	case Internal:
		return "internal"
	case Interrupted:
		return "interrupted"
	case Config:
		return "config"
	case OutOfMemory:
		return "out of memory"
	case Input:
		return "input"
	case Compute:
		return "compute"
	case Superseded:
		return "superseded"
	case Output:
		return "output"
	case NoGPU:
		return "no GPU"
	case Incomplete:
		return "incomplete"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}
