package tables

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"testing"
)

// TestWriteBehindKeepsOrderAndDigest writes pieces of every size, from a
// byte to several chunks, and checks that the bytes arrive in order and
// that the size and SHA-256 are those of the bytes.
func TestWriteBehindKeepsOrderAndDigest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	var dst bytes.Buffer
	digest := NewDigestWriter(&dst)
	w := newWriteBehind(digest)
	var want bytes.Buffer
	for range 200 {
		size := rng.IntN(64)
		if rng.IntN(10) == 0 {
			size = rng.IntN(3 * writeBehindChunkBytes)
		}
		p := make([]byte, size)
		for i := range p {
			p[i] = byte(rng.IntN(256))
		}
		want.Write(p)
		if n, err := w.Write(p); n != size || err != nil {
			t.Fatalf("Write of %d bytes: %d, %v", size, n, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	sum := sha256.Sum256(want.Bytes())
	if !bytes.Equal(dst.Bytes(), want.Bytes()) || digest.Bytes() != int64(want.Len()) || digest.Sum() != hex.EncodeToString(sum[:]) {
		t.Fatalf("wrote %d bytes (digest %d, %s), want %d (%x)", dst.Len(), digest.Bytes(), digest.Sum(), want.Len(), sum)
	}
	if _, err := w.Write([]byte{1}); !errors.Is(err, errWriteBehindClosed) {
		t.Fatalf("a write after Close: %v", err)
	}
}

// failingWriter fails every write after the first ok bytes.
type failingWriter struct{ ok int }

var errDiskFull = errors.New("disk full")

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.ok < len(p) {
		n := f.ok
		f.ok = 0
		return n, errDiskFull
	}
	f.ok -= len(p)
	return len(p), nil
}

// TestWriteBehindReportsTheWritersError: a failed write of the underlying
// file is returned by a later Write, once the goroutine has met it, and
// by Close, which still ends the goroutine.
func TestWriteBehindReportsTheWritersError(t *testing.T) {
	w := newWriteBehind(NewDigestWriter(&failingWriter{ok: writeBehindChunkBytes + 10}))
	chunk := make([]byte, writeBehindChunkBytes)
	var err error
	for i := 0; i < 64 && err == nil; i++ {
		_, err = w.Write(chunk)
	}
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("writes after the failure: %v, want %v", err, errDiskFull)
	}
	if err := w.Close(); !errors.Is(err, errDiskFull) {
		t.Fatalf("Close: %v, want %v", err, errDiskFull)
	}
	select {
	case <-w.done:
	default:
		t.Fatal("the goroutine runs on after Close")
	}
}
