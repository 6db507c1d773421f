//go:build cuda

package gpu

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// testBackends holds one backend per parent strategy, opened once for the
// package's tests (opening a context costs a fraction of a second).
var testBackends map[ParentStrategy]*Backend

func TestMain(m *testing.M) {
	if ok, reason := Available(); !ok {
		fmt.Println("skipping the GPU tests:", reason)
		os.Exit(0)
	}
	testBackends = map[ParentStrategy]*Backend{}
	for _, s := range []ParentStrategy{ParentsAuto, ParentsTrack, ParentsRecover} {
		b, err := New(WithParentStrategy(s))
		if err != nil {
			fmt.Println("opening the GPU:", err)
			os.Exit(1)
		}
		testBackends[s] = b
	}
	code := m.Run()
	for _, b := range testBackends {
		b.Close()
	}
	os.Exit(code)
}

// freshSeed returns a new seed and logs it, so a failure can be replayed.
func freshSeed(t testing.TB) uint64 {
	s := uint64(time.Now().UnixNano())
	t.Logf("fresh seed %d", s)
	return s
}
