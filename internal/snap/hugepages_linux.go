package snap

import "syscall"

// adviseHuge asks the kernel for transparent huge pages over the whole
// huge pages inside b. Advice only: an error (an old kernel, THP off)
// leaves the memory as it was.
func adviseHuge(b []byte) {
	if span := hugeSpan(b); span != nil {
		_ = syscall.Madvise(span, syscall.MADV_HUGEPAGE)
	}
}
