package formats

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestOpenMaybeGzip(t *testing.T) {
	text := []byte("p sp 1 0\n")
	for _, tc := range []struct {
		name string
		in   []byte
		want []byte
	}{
		{"plain", text, text},
		{"gzip", gzipBytes(t, text), text},
		{"two gzip members", append(gzipBytes(t, text[:4]), gzipBytes(t, text[4:])...), text},
		{"empty", nil, nil},
		{"one byte", []byte{0x1f}, []byte{0x1f}},
		{"magic lookalike", []byte{0x1f, 0x8a, 'x'}, []byte{0x1f, 0x8a, 'x'}},
	} {
		r, err := openMaybeGzip(iotest.OneByteReader(bytes.NewReader(tc.in)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !bytes.Equal(got, tc.want) {
			t.Errorf("%s: read %q, want %q", tc.name, got, tc.want)
		}
	}
	_, err := openMaybeGzip(bytes.NewReader([]byte{0x1f, 0x8b, 0}))
	if err == nil || !strings.HasPrefix(err.Error(), "gzip header") {
		t.Errorf("broken gzip header: %v", err)
	}
}
