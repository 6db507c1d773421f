//go:build cuda

package gpu

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// testBackends holds one backend per parent strategy and
// oneStreamBackends the same without the fast variant's lookahead, opened
// once for the package's tests (opening a context costs a fraction of a
// second).
var testBackends, oneStreamBackends map[ParentStrategy]*Backend

func TestMain(m *testing.M) {
	if ok, reason := Available(); !ok {
		fmt.Println("skipping the GPU tests:", reason)
		os.Exit(0)
	}
	testBackends, oneStreamBackends = map[ParentStrategy]*Backend{}, map[ParentStrategy]*Backend{}
	for _, s := range []ParentStrategy{ParentsAuto, ParentsTrack, ParentsRecover} {
		for _, lookahead := range []bool{true, false} {
			b, err := New(WithParentStrategy(s), WithLookahead(lookahead))
			if err != nil {
				fmt.Println("opening the GPU:", err)
				os.Exit(1)
			}
			if lookahead {
				testBackends[s] = b
			} else {
				oneStreamBackends[s] = b
			}
		}
	}
	code := m.Run()
	for _, b := range testBackends {
		b.Close()
	}
	for _, b := range oneStreamBackends {
		b.Close()
	}
	os.Exit(code)
}

// defaultBackend is the backend with default options.
func defaultBackend() *Backend { return testBackends[ParentsAuto] }

// freshSeed returns a new seed and logs it, so a failure can be replayed.
func freshSeed(t testing.TB) uint64 {
	s := uint64(time.Now().UnixNano())
	t.Logf("fresh seed %d", s)
	return s
}
