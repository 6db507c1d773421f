//go:build !linux

package atomicfile

// bootID is unknown here: a lock's boot is never compared.
func bootID() string { return "" }

// processStart cannot be read here: a lock's pid alone names its holder,
// and a reused pid is taken for it until the lock is older than
// LockStaleAge.
func processStart(pid int) (string, bool) { return "", false }
