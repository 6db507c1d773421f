//go:build unix

package shortesttest

import (
	"syscall"
	"time"
)

// ProcessCPUTime returns the user and system time the process has used,
// all threads together.
func ProcessCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
