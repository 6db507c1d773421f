package snap

import "unsafe"

// SnapAll's results and the index's arrays are large and written once.
// With 4 KiB pages, the first write to each page is a fault that the
// kernel serves by zeroing it, and on virtual machines such faults cost
// more than the search: snapping 1,000,000 points writes some 50,000
// fresh pages, and a fresh process snapping them three times on the
// 2-core development VM spent 3.2 s in the kernel beside 5.8 s in Go
// (0.5-0.9 s beside 4.8 s with the advice). Asking for transparent huge
// pages makes the faults 512 times fewer where the kernel grants them on
// request (transparent_hugepage "madvise", a common default); elsewhere
// the advice is ignored and nothing changes but one system call.

// hugePageBytes is the size of an x86-64 and arm64 transparent huge page.
const hugePageBytes = 2 << 20

// large returns a zeroed slice of n elements, advised to use huge pages
// where it spans any.
func large[T any](n int) []T {
	s := make([]T, n)
	if bytes := n * int(unsafe.Sizeof(*new(T))); bytes >= hugePageBytes {
		adviseHuge(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), bytes))
	}
	return s
}

// hugeSpan returns the whole huge pages inside b, or nil when there are
// none.
func hugeSpan(b []byte) []byte {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (start + hugePageBytes - 1) &^ (hugePageBytes - 1)
	hi := (start + uintptr(len(b))) &^ (hugePageBytes - 1)
	if hi <= lo {
		return nil
	}
	return b[lo-start : hi-start]
}
