//go:build cuda

package gpu

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"

	"github.com/pathflow/pathflow/internal/graph"
)

// testBackends holds one backend per parent strategy and
// oneStreamBackends the same without the fast variant's lookahead, opened
// once for the package's tests (opening a context costs a fraction of a
// second).
var testBackends, oneStreamBackends map[allpairs.ParentStrategy]*Backend

func TestMain(m *testing.M) {
	if ok, reason := Available(); !ok {
		fmt.Println("skipping the GPU tests:", reason)
		os.Exit(0)
	}
	testBackends, oneStreamBackends = map[allpairs.ParentStrategy]*Backend{}, map[allpairs.ParentStrategy]*Backend{}
	for _, s := range []allpairs.ParentStrategy{allpairs.ParentsAuto, allpairs.ParentsTrack, allpairs.ParentsRecover} {
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
	for _, backends := range []map[allpairs.ParentStrategy]*Backend{testBackends, oneStreamBackends} {
		for _, b := range backends {
			if err := b.Close(); err != nil {
				fmt.Println("closing a backend:", err)
				code = max(code, 1)
			}
		}
	}
	os.Exit(code)
}

// closeChecked closes c and fails t if that fails; deferred, it frees
// what a test used as soon as the test function returns.
func closeChecked(t testing.TB, what string, c io.Closer) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Errorf("closing %s: %v", what, err)
	}
}

// defaultBackend is the backend with default options.
func defaultBackend() *Backend { return testBackends[allpairs.ParentsAuto] }

// openBackend opens a backend of its own for one test, closed at its end.
func openBackend(t *testing.T, opts ...Option) *Backend {
	t.Helper()
	b, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("closing the backend: %v", err)
		}
	})
	return b
}

// freshSeed returns a new seed and logs it, so a failure can be replayed.
func freshSeed(t testing.TB) uint64 {
	s := uint64(time.Now().UnixNano())
	t.Logf("fresh seed %d", s)
	return s
}

// poison is written over device buffers and cached pinned blocks before
// test runs, so a cell no kernel or copy writes cannot pass for a result
// left by an earlier run.
const poison int32 = 0x2EADBEEF

// poisonPinned fills b's cached pinned blocks with poison.
func poisonPinned(b *Backend) {
	b.pinned.mu.Lock()
	defer b.pinned.mu.Unlock()
	for _, p := range b.pinned.free {
		s := p.Int32s(p.bytes / 4)
		for i := range s {
			s[i] = poison
		}
	}
}

// vertices returns 0..n-1.
func vertices(n int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// request builds a run's request, its Choice from the GPU's Choose.
func request(t *testing.T, e *graph.EdgeList, alg backend.Algorithm, sources []int32, parents bool) (backend.Request, error) {
	t.Helper()
	g := graph.BuildCSR(e)
	lo, hi := e.WeightRange()
	choice, err := choose(backend.Problem{N: e.N, M: int64(e.M()), MinWeight: lo, MaxWeight: hi,
		Sources: len(sources), AllSources: len(sources) == int(e.N), Algorithm: alg, Parents: parents})
	return backend.Request{Edges: e, CSR: g, Sources: sources, Choice: choice, Parents: parents, MaxDistance: backend.NoCutoff}, err
}

// noLeaks fails t when more goroutines run than before, once those that
// are ending have had a moment.
func noLeaks(t *testing.T, before int) {
	t.Helper()
	for range 50 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines running, %d before the run", runtime.NumGoroutine(), before)
}
