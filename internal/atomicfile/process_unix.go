//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// processGone reports whether no process with this pid runs on this
// machine: none has it, or it has exited and only waits to be reaped (a
// zombie answers signals' existence checks). A process of another user
// (EPERM) still runs.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) || processDead(pid)
}
