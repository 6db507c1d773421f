//go:build !linux

package tables

// adviseHuge does nothing where there is no madvise for huge pages.
func adviseHuge(b []byte) { _ = hugeSpan(b) }
