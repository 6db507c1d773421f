//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// processGone reports whether no process with this pid runs on this
// machine. A process of another user (EPERM) still runs.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
