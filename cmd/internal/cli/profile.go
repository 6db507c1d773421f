package cli

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
)

// ProfileEnv names a file into which a command writes a Go CPU profile of
// its whole run (go tool pprof reads it), for finding where a job's time
// goes; unset, nothing is profiled. Time spent inside the CUDA driver shows
// under runtime.cgocall with the Go caller's stack.
const ProfileEnv = "PATHFLOW_CPUPROFILE"

// startProfile starts the CPU profile env asks for, and returns what stops
// it; a profile that cannot start is reported on stderr and skipped.
func startProfile(env []string, msgs messages) (stop func()) {
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, ProfileEnv+"="); ok {
			path = v
		}
	}
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		msgs.warn("no CPU profile: %v", fmt.Errorf("%s: %w", ProfileEnv, err))
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			msgs.warn("CPU profile: %v", err)
		}
	}
}
