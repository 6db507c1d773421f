package hugepages

import "syscall"

// advise asks the kernel for transparent huge pages over the whole huge
// pages inside b. Advice only: an error (an old kernel, THP off) leaves
// the memory as it was.
func advise(b []byte) {
	if s := span(b); s != nil {
		_ = syscall.Madvise(s, syscall.MADV_HUGEPAGE)
	}
}
