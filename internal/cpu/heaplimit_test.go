package cpu

import (
	"context"
	"math"
	"runtime/debug"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/results"
)

// fakeLimits replaces the collector's limit and the runtime's memory with
// a recorded limit starting at limit and inUse bytes, for one test.
func fakeLimits(t *testing.T, limit, inUse int64) *int64 {
	t.Helper()
	oldSet, oldMem := setMemoryLimit, runtimeMemory
	t.Cleanup(func() { setMemoryLimit, runtimeMemory = oldSet, oldMem })
	setMemoryLimit = func(l int64) int64 {
		prev := limit
		if l >= 0 {
			limit = l
		}
		return prev
	}
	runtimeMemory = func() int64 { return inUse }
	return &limit
}

// The limit of runs in progress is what was live when the first began,
// what they plan, and a quarter of both (at least 256 MiB); it follows
// runs that start and end, and the last one puts back no limit.
func TestHeapLimitFollowsTheRunsInProgress(t *testing.T) {
	const mib = int64(1 << 20)
	limit := fakeLimits(t, math.MaxInt64, 100*mib)
	var l heapLimit
	facts, releaseA := l.hold(1024 * mib)
	want := 1124*mib + 281*mib
	if facts != (HeapLimitFacts{Bytes: want, Set: "run"}) || *limit != want {
		t.Fatalf("one run of 1 GiB over 100 MiB: facts %+v, limit %d, want %d set by the run", facts, *limit, want)
	}
	_, releaseB := l.hold(100 * mib)
	if want := 1224*mib + 306*mib; *limit != want {
		t.Fatalf("two runs: limit %d, want %d", *limit, want)
	}
	releaseA()
	releaseA() // a second release is a no-op
	if want := 200*mib + 256*mib; *limit != want {
		t.Fatalf("after the first run: limit %d, want %d (the headroom's floor)", *limit, want)
	}
	releaseB()
	if *limit != math.MaxInt64 {
		t.Fatalf("after the last run: limit %d, want none (%d)", *limit, int64(math.MaxInt64))
	}
}

// A limit set before the first run (GOMEMLIMIT) is the user's: runs
// report it and leave it, and the next run that finds none sets its own.
func TestHeapLimitKeepsTheUsersLimit(t *testing.T) {
	const users = int64(3 << 30)
	limit := fakeLimits(t, users, 1<<20)
	var l heapLimit
	facts, release := l.hold(8 << 30)
	if facts != (HeapLimitFacts{Bytes: users, Set: "user"}) || *limit != users {
		t.Fatalf("under a user's limit: facts %+v, limit %d, want the user's %d kept", facts, *limit, users)
	}
	release()
	if *limit != users {
		t.Fatalf("after the run: limit %d, want the user's %d", *limit, users)
	}
	*limit = math.MaxInt64
	if facts, release := l.hold(1 << 30); facts.Set != "run" || *limit == math.MaxInt64 {
		t.Fatalf("a later run without a user's limit: facts %+v, limit %d; want one set by the run", facts, *limit)
	} else {
		release()
	}
}

// A run of whole ch trees in blocks smaller than a sweep holds the Go
// collector to the limit it reports while its rows are written, and puts
// back what it found: no limit, or a user's.
func TestWholeTreesHoldTheCollectorLimit(t *testing.T) {
	e, _, err := generate.Road(30, 2)
	if err != nil {
		t.Fatal(err)
	}
	req, err := requestFor(e, backend.Algorithm{Name: backend.AlgorithmCH}, []int32{0, 5, 9}, true)
	if err != nil {
		t.Fatal(err)
	}
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	for _, users := range []int64{math.MaxInt64, 64 << 30} {
		debug.SetMemoryLimit(users)
		var facts TreeMemoryFacts
		req.Facts = func(key string, v any) {
			if key == treeMemoryFactKey {
				facts = v.(TreeMemoryFacts)
			}
		}
		b := New(2)
		b.blockValues = int(e.N) // a row a block: blocks smaller than a sweep
		var during []int64
		err := b.Run(context.Background(), req, func(rows *results.Rows) error {
			during = append(during, debug.SetMemoryLimit(-1))
			rows.Release()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		wantSet, wantBytes := "run", facts.HeapLimit.Bytes
		if users != math.MaxInt64 {
			wantSet, wantBytes = "user", users
		}
		if facts.HeapLimit.Set != wantSet || facts.HeapLimit.Bytes != wantBytes || wantBytes == math.MaxInt64 || wantBytes < facts.planned() {
			t.Fatalf("limit found %d: run reports %+v, want set by %q, %d bytes, at least the %d planned", users, facts.HeapLimit, wantSet, wantBytes, facts.planned())
		}
		for _, l := range during {
			if l != wantBytes {
				t.Fatalf("limit found %d: %d while a block was written, want %d", users, l, wantBytes)
			}
		}
		if len(during) != 3 {
			t.Fatalf("%d blocks written, want 3", len(during))
		}
		if after := debug.SetMemoryLimit(-1); after != users {
			t.Fatalf("after the run the limit is %d, want %d as found", after, users)
		}
	}
}
