//go:build cuda

package device

import (
	"log"
	"os"
	"sync"

	"github.com/pathflow/pathflow/kernels"
)

// SyncEnv is the environment variable that turns on launch debugging:
// with PATHFLOW_GPU_SYNC=1 every kernel launch synchronises and is logged
// to stderr with its shape and duration, and an asynchronous fault is
// reported at the launch that caused it.
const SyncEnv = "PATHFLOW_GPU_SYNC"

var debugOnce sync.Once

func enableDebugFromEnv() {
	debugOnce.Do(func() {
		if os.Getenv(SyncEnv) == "1" {
			setLaunchDebug(true)
		}
	})
}

// setLaunchDebug turns launch debugging (see SyncEnv) on or off for the
// whole process.
func setLaunchDebug(on bool) {
	if !on {
		kernels.SetLaunchObserver(nil)
		return
	}
	logger := log.New(os.Stderr, "gpu: ", log.Lmicroseconds)
	kernels.SetLaunchObserver(func(r kernels.LaunchReport) {
		if r.Err != nil {
			logger.Printf("%s %v: %v after %v", r.Kernel, r.Config, r.Err, r.Elapsed)
			return
		}
		logger.Printf("%s %v: %v", r.Kernel, r.Config, r.Elapsed)
	})
}
