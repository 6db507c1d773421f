// Package hugepages allocates the large arrays that are written once from
// start to end (a reload's graph arrays, the snapped places and their
// index) so that the kernel can back them with transparent huge pages.
//
// With 4 KiB pages, the first write to each page is a fault that the
// kernel serves by zeroing it; on virtual machines such faults cost more
// than the work that writes the page (measured: three quarters of a fresh
// process's load time; a fresh process snapping 1,000,000 points three
// times spent 3.2 s in the kernel beside 5.8 s in Go, 0.5-0.9 s with the
// advice). Asking for transparent huge pages makes them 512 times fewer
// where the kernel grants them on request (transparent_hugepage
// "madvise", a common default); elsewhere the advice is ignored and
// nothing changes but the cost of one system call.
package hugepages

import "unsafe"

// pageBytes is the size of an x86-64 and arm64 transparent huge page.
const pageBytes = 2 << 20

// Make returns a zeroed slice of n elements, advised to use huge pages
// where it spans any.
func Make[T any](n int) []T {
	s := make([]T, n)
	if bytes := n * int(unsafe.Sizeof(*new(T))); bytes >= pageBytes {
		advise(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), bytes))
	}
	return s
}

// span returns the whole huge pages inside b, or nil when there are none.
func span(b []byte) []byte {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (start + pageBytes - 1) &^ (pageBytes - 1)
	hi := (start + uintptr(len(b))) &^ (pageBytes - 1)
	if hi <= lo {
		return nil
	}
	return b[lo-start : hi-start]
}
