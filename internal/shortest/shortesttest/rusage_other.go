//go:build !unix

package shortesttest

import "time"

// ProcessCPUTime is unavailable here.
func ProcessCPUTime() (time.Duration, bool) { return 0, false }
