package tables

import (
	"testing"
	"unsafe"
)

func TestHugeSpanIsTheWholeHugePagesInside(t *testing.T) {
	buf := make([]byte, 3*hugePageBytes)
	base := uintptr(unsafe.Pointer(&buf[0]))
	skip := int((hugePageBytes - base%hugePageBytes) % hugePageBytes) // to the first boundary
	for _, tc := range []struct {
		name      string
		lo, hi    int
		wantPages int
	}{
		{"one page from a boundary", skip, skip + hugePageBytes, 1},
		{"one page and a bit", skip, skip + hugePageBytes + 100, 1},
		{"starting past a boundary", skip + 1, skip + 2*hugePageBytes, 1},
		{"across one boundary only", skip + 1, skip + 2*hugePageBytes - 1, 0},
		{"less than a page", skip + 1, skip + hugePageBytes - 1, 0},
		{"empty", skip, skip, 0},
	} {
		b := buf[tc.lo:tc.hi]
		span := hugeSpan(b)
		if len(span) != tc.wantPages*hugePageBytes {
			t.Errorf("%s: %d bytes, want %d pages", tc.name, len(span), tc.wantPages)
			continue
		}
		if len(span) > 0 {
			start := uintptr(unsafe.Pointer(&span[0]))
			if start%hugePageBytes != 0 || start < uintptr(unsafe.Pointer(&b[0])) || start+uintptr(len(span)) > uintptr(unsafe.Pointer(&b[0]))+uintptr(len(b)) {
				t.Errorf("%s: span [%#x, +%d) not aligned inside the slice", tc.name, start, len(span))
			}
		}
	}
	if s := largeInt32s(5 << 20); len(s) != 5<<20 || s[len(s)-1] != 0 {
		t.Error("largeInt32s gives a wrong slice")
	}
}
