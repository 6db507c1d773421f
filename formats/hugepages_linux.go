package formats

import (
	"syscall"
	"unsafe"
)

// hugePageMin is the smallest array worth advising: below a few huge pages
// the page faults it saves are negligible.
const hugePageMin = 8 << 20

// adviseHugePages asks the kernel to back the large array s, not yet
// touched, with 2 MiB pages. Result arrays of a big graph are hundreds of
// megabytes, written once in file order; with 4 KiB pages their first
// touch costs a page fault per 4 KiB, which on virtual machines took half
// the time of a parse. Where transparent huge pages are off, or s was
// already touched, this changes nothing; errors are ignored for that
// reason. Each call may split the heap's mapping in the kernel, which is why
// only the few large arrays of a read are advised.
func adviseHugePages[T any](s []T) {
	var zero T
	size := uintptr(len(s)) * unsafe.Sizeof(zero)
	if size < hugePageMin {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), size)
	// madvise wants a page-aligned start; the array's own pages suffice.
	const page = 4096
	start := (uintptr(unsafe.Pointer(&b[0])) + page - 1) &^ (page - 1)
	offset := start - uintptr(unsafe.Pointer(&b[0]))
	_ = syscall.Madvise(b[offset:], syscall.MADV_HUGEPAGE)
}
