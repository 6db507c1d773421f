package cli

import "github.com/pathflow/pathflow/pipeline/stageerr"

// Exit codes of the pathflow commands, documented in the README. Scheduled
// jobs can branch on them.
const (
	ExitOK          = 0   // the stage finished and its outputs are in place
	ExitInternal    = 1   // an unexpected failure (a bug): please report it
	ExitConfig      = 2   // bad flags, config file or environment variable
	ExitInput       = 3   // an input file is missing, unreadable or malformed
	ExitCompute     = 4   // the computation cannot give a correct answer (negative cycle, overflow, device)
	ExitOutput      = 5   // the outputs could not be written
	ExitIncomplete  = 6   // compute -finalize found shards missing or stale: rerun those tasks, then finalize again
	ExitSuperseded  = 7   // another run committed the output first: this run's result was dropped
	ExitNoGPU       = 8   // compute.backend is gpu but no GPU can be used here: no driver library, no device, or a build without CUDA
	ExitOutOfMemory = 9   // not enough memory: the input's sizes need more than this machine or its limits give, or the run ran out
	ExitInterrupted = 130 // SIGINT or SIGTERM: temporaries were removed
)

// exitCodes gives each kind of stage error its exit code.
var exitCodes = map[stageerr.Kind]int{
	stageerr.None:        ExitOK,
	stageerr.Internal:    ExitInternal,
	stageerr.Interrupted: ExitInterrupted,
	stageerr.Config:      ExitConfig,
	stageerr.OutOfMemory: ExitOutOfMemory,
	stageerr.Input:       ExitInput,
	stageerr.Compute:     ExitCompute,
	stageerr.Superseded:  ExitSuperseded,
	stageerr.Output:      ExitOutput,
	stageerr.NoGPU:       ExitNoGPU,
	stageerr.Incomplete:  ExitIncomplete,
}

// ExitCode maps an error returned by a stage to the command's exit code.
func ExitCode(err error) int {
	if code, ok := exitCodes[stageerr.KindOf(err)]; ok {
		return code
	}
	return ExitInternal
}
