//go:build !linux

package formats

// adviseHugePages is a no-op where madvise is not available.
func adviseHugePages[T any](s []T) {}
