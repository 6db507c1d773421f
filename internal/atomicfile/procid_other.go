//go:build !linux

package atomicfile

import "time"

// bootID is unknown here: a lock's boot is never compared.
func bootID() string { return "" }

// processStart cannot be read here: a lock's pid alone names its holder,
// and a reused pid is taken for it until the lock is older than
// LockStaleAge.
func processStart(pid int) (string, bool) { return "", false }

// processDead cannot be read here: a process is gone only when the system
// says no process has its pid.
func processDead(pid int) bool { return false }

// processStartedAfter cannot be read here: a pid is taken for the
// temporary's writer while any process has it.
func processStartedAfter(pid int, t time.Time) bool { return false }
