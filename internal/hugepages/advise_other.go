//go:build !linux

package hugepages

// advise does nothing where there is no madvise for huge pages.
func advise(b []byte) { _ = span(b) }
