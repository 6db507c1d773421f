//go:build !unix

package atomicfile

// processGone cannot ask about other processes here, so it never calls one
// gone: RemoveStale then removes nothing.
func processGone(pid int) bool { return false }
