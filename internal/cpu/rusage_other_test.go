//go:build !unix

package cpu

import "time"

// processCPUTime is unavailable here.
func processCPUTime() (time.Duration, bool) { return 0, false }
