package tables

import "unsafe"

// The graph arrays a reload fills are large and written once from start
// to end. With 4 KiB pages, the first write to each page is a fault that
// the kernel serves by zeroing it; on virtual machines such faults cost
// more than decoding the page's values (measured: three quarters of a
// fresh process's load time). Asking for transparent huge pages makes
// them 512 times fewer where the kernel grants them on request
// (transparent_hugepage "madvise", a common default); elsewhere the
// advice is ignored and nothing changes but the cost of one system call.

// hugePageBytes is the size of an x86-64 and arm64 transparent huge page.
const hugePageBytes = 2 << 20

// largeInt32s returns a zeroed slice of n int32s, advised to use huge
// pages when it spans any.
func largeInt32s(n int) []int32 {
	s := make([]int32, n)
	if n > 0 {
		adviseHuge(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), 4*n))
	}
	return s
}

// largeInt64s is largeInt32s for int64s.
func largeInt64s(n int) []int64 {
	s := make([]int64, n)
	if n > 0 {
		adviseHuge(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), 8*n))
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
