package cpu

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// minHeapHeadroom and heapHeadroomShare size what a run's collector limit
// leaves beyond the memory its plan holds and what was live when it
// started: a quarter of those, at least 256 MiB, for what the plan does
// not count (the writers' buffers, the upward searches' scratch space,
// the garbage between two collections). Less would make the collector
// run ever more often as the heap nears the limit; it is a soft limit,
// so a heap that outgrows it costs collector time (at most half the
// CPU, the runtime's own cap), never a failure.
const (
	minHeapHeadroom   = 256 << 20
	heapHeadroomShare = 4
)

// setMemoryLimit and runtimeMemory are debug.SetMemoryLimit and
// liveRuntimeMemory, replaced by tests.
var (
	setMemoryLimit = debug.SetMemoryLimit
	runtimeMemory  = liveRuntimeMemory
)

// processHeapLimit is the collector limit of the process, which runs in
// progress share: the runtime has one.
var processHeapLimit heapLimit

// heapLimit sets the Go collector's memory limit (debug.SetMemoryLimit)
// for runs whose plan bounds their memory, so that the heap stays near
// what is live instead of growing to twice it (GOGC's goal) before each
// collection: at 24M vertices that is gigabytes of a whole-tree run's
// peak. The limit is what was live when the first run began, plus what
// the runs in progress plan to hold, plus headroom (minHeapHeadroom);
// the last run to end puts back the limit it found. A limit set before
// the first run (GOMEMLIMIT, or the program's own SetMemoryLimit) is the
// user's and is kept as it is.
type heapLimit struct {
	mu      sync.Mutex
	runs    int
	planned int64 // bytes the runs in progress plan to hold
	base    int64 // runtime memory in use when the first run began
	prev    int64 // the limit the first run found
	user    bool  // prev was set by the user: leave it
}

// HeapLimitFacts is what a run reports of the collector limit it ran
// under: the limit in bytes, and whether the run set it or kept a
// user's (GOMEMLIMIT).
type HeapLimitFacts struct {
	Bytes int64 `json:"bytes"`
	// Set is "run" when the run set the limit from its plan, "user" when
	// it kept one set before it.
	Set string `json:"set"`
}

// hold adds planned bytes to the runs in progress and sets the limit for
// them, unless the user set one; release, called once when the run ends,
// takes them off again and, after the last run, restores the limit found.
func (l *heapLimit) hold(planned int64) (facts HeapLimitFacts, release func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.runs == 0 {
		l.prev = setMemoryLimit(-1)
		l.user = l.prev != math.MaxInt64
		l.base, l.planned = runtimeMemory(), 0
	}
	l.runs++
	l.planned += planned
	facts = HeapLimitFacts{Bytes: l.prev, Set: "user"}
	if !l.user {
		facts = HeapLimitFacts{Bytes: l.limit(), Set: "run"}
		setMemoryLimit(facts.Bytes)
	}
	var once sync.Once
	return facts, func() { once.Do(func() { l.release(planned) }) }
}

// limit is the collector limit for the runs in progress; l.mu held.
func (l *heapLimit) limit() int64 {
	kept := l.base + l.planned
	return kept + max(minHeapHeadroom, kept/heapHeadroomShare)
}

// release ends a run that held planned bytes.
func (l *heapLimit) release(planned int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.runs--
	l.planned -= planned
	switch {
	case l.user:
	case l.runs == 0:
		setMemoryLimit(l.prev)
	default:
		setMemoryLimit(l.limit())
	}
}

// liveRuntimeMemory is the memory the Go runtime holds that the collector
// cannot free: everything it has mapped and not returned to the system,
// less the free heap and the heap objects found dead by the last
// collection. It is what the collector limit counts, at the heap's
// smallest.
func liveRuntimeMemory() int64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/live:bytes"},
	}
	metrics.Read(s)
	v := func(i int) int64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(s[i].Value.Uint64())
	}
	inUse := v(0) - v(1) - v(2)
	return max(0, inUse-v(3)+min(v(3), v(4)))
}
