//go:build cuda

package backendtest

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// backends holds one backend per parent strategy and oneStream the same
// without the fast variant's lookahead, opened once for a package's tests
// (opening a context costs a fraction of a second).
var backends, oneStream map[allpairs.ParentStrategy]*gpu.Backend

// Main is a CUDA test package's TestMain: it skips the tests (exit 0)
// where no GPU can be used, opens the shared backends, runs the tests and
// closes the backends.
func Main(m *testing.M) {
	if ok, reason := device.Available(); !ok {
		fmt.Println("skipping the GPU tests:", reason)
		os.Exit(0)
	}
	backends, oneStream = map[allpairs.ParentStrategy]*gpu.Backend{}, map[allpairs.ParentStrategy]*gpu.Backend{}
	for _, s := range []allpairs.ParentStrategy{allpairs.ParentsAuto, allpairs.ParentsTrack, allpairs.ParentsRecover} {
		for _, lookahead := range []bool{true, false} {
			b, err := gpu.New(gpu.WithParentStrategy(s), gpu.WithLookahead(lookahead))
			if err != nil {
				fmt.Println("opening the GPU:", err)
				os.Exit(1)
			}
			if lookahead {
				backends[s] = b
			} else {
				oneStream[s] = b
			}
		}
	}
	code := m.Run()
	for _, all := range []map[allpairs.ParentStrategy]*gpu.Backend{backends, oneStream} {
		for _, b := range all {
			if err := b.Close(); err != nil {
				fmt.Println("closing a backend:", err)
				code = max(code, 1)
			}
		}
	}
	os.Exit(code)
}

// Default is the shared backend with default options.
func Default() *gpu.Backend { return backends[allpairs.ParentsAuto] }

// WithStrategy is the shared backend with parent strategy s, with the fast
// variant's lookahead or without.
func WithStrategy(s allpairs.ParentStrategy, lookahead bool) *gpu.Backend {
	if lookahead {
		return backends[s]
	}
	return oneStream[s]
}

// Open opens a backend of its own for one test, closed at its end.
func Open(t *testing.T, opts ...gpu.Option) *gpu.Backend {
	t.Helper()
	b, err := gpu.New(opts...)
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

// CloseChecked closes c and fails t if that fails; deferred, it frees
// what a test used as soon as the test function returns.
func CloseChecked(t testing.TB, what string, c io.Closer) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Errorf("closing %s: %v", what, err)
	}
}

// SeedEnv, when set to a number, is the seed FreshSeed returns: the one a
// failing run logged, to replay it (TEST_SEED=1795806905133303559).
const SeedEnv = "TEST_SEED"

// FreshSeed returns a new seed, or SeedEnv's, and logs it, so a failure
// can be replayed.
func FreshSeed(t testing.TB) uint64 {
	s := uint64(time.Now().UnixNano())
	if v, err := strconv.ParseUint(os.Getenv(SeedEnv), 10, 64); err == nil {
		s = v
	}
	t.Logf("fresh seed %d", s)
	return s
}

// Poison is written over device buffers and cached pinned blocks before
// test runs, so a cell no kernel or copy writes cannot pass for a result
// left by an earlier run.
const Poison int32 = 0x2EADBEEF

// PoisonPinned fills b's cached pinned blocks with Poison.
func PoisonPinned(b *gpu.Backend) {
	for _, g := range b.Stagers() {
		g.FillCached(Poison)
	}
}

// Vertices returns 0..n-1.
func Vertices(n int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// Request builds a run's request, its Choice from the registered GPU
// factory's Choose.
func Request(t *testing.T, e *graph.EdgeList, alg backend.Algorithm, sources []int32, parents bool) (backend.Request, error) {
	t.Helper()
	f, ok := backend.Lookup(gpu.Name)
	if !ok {
		t.Fatal(`a cuda build did not register "gpu"`)
	}
	g := graph.BuildCSR(e)
	lo, hi := e.WeightRange()
	choice, err := f.Choose(backend.Problem{N: e.N, M: int64(e.M()), MinWeight: lo, MaxWeight: hi,
		Sources: len(sources), AllSources: len(sources) == int(e.N), Algorithm: alg})
	return backend.Request{Shape: results.Shape{Sources: sources, Columns: results.ColumnsOf().With(results.Parent, parents), MaxDistance: results.NoCutoff}, Edges: e, CSR: g, Choice: choice}, err
}

// NoLeaks fails t when more goroutines run than before, once those that
// are ending have had a moment.
func NoLeaks(t *testing.T, before int) {
	t.Helper()
	for range 50 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines running, %d before the run", runtime.NumGoroutine(), before)
}
