package hugepages

import (
	"testing"
	"unsafe"
)

func TestSpanIsTheWholeHugePagesInside(t *testing.T) {
	buf := make([]byte, 3*pageBytes)
	base := uintptr(unsafe.Pointer(&buf[0]))
	skip := int((pageBytes - base%pageBytes) % pageBytes) // to the first boundary
	for _, tc := range []struct {
		name      string
		lo, hi    int
		wantPages int
	}{
		{"one page from a boundary", skip, skip + pageBytes, 1},
		{"one page and a bit", skip, skip + pageBytes + 100, 1},
		{"starting past a boundary", skip + 1, skip + 2*pageBytes, 1},
		{"across one boundary only", skip + 1, skip + 2*pageBytes - 1, 0},
		{"less than a page", skip + 1, skip + pageBytes - 1, 0},
		{"empty", skip, skip, 0},
	} {
		b := buf[tc.lo:tc.hi]
		span := span(b)
		if len(span) != tc.wantPages*pageBytes {
			t.Errorf("%s: %d bytes, want %d pages", tc.name, len(span), tc.wantPages)
			continue
		}
		if len(span) > 0 {
			start := uintptr(unsafe.Pointer(&span[0]))
			if start%pageBytes != 0 || start < uintptr(unsafe.Pointer(&b[0])) || start+uintptr(len(span)) > uintptr(unsafe.Pointer(&b[0]))+uintptr(len(b)) {
				t.Errorf("%s: span [%#x, +%d) not aligned inside the slice", tc.name, start, len(span))
			}
		}
	}
	if s := Make[int32](5 << 20); len(s) != 5<<20 || s[len(s)-1] != 0 {
		t.Error("Make gives a wrong slice")
	}
}
