//go:build !linux

package snap

// adviseHuge does nothing where there is no madvise for huge pages.
func adviseHuge(b []byte) { _ = hugeSpan(b) }
