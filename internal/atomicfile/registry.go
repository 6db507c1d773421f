package atomicfile

import "sync"

// aborter is an in-flight temporary: a File or a Dir.
type aborter interface {
	Abort() error
}

// inFlight holds every temporary that is neither committed nor aborted, so
// AbortAll can reach them from a signal handler.
var inFlight = struct {
	sync.Mutex
	set map[aborter]struct{}
}{set: make(map[aborter]struct{})}

func register(a aborter) {
	inFlight.Lock()
	inFlight.set[a] = struct{}{}
	inFlight.Unlock()
}

func unregister(a aborter) {
	inFlight.Lock()
	delete(inFlight.set, a)
	inFlight.Unlock()
}

// AbortAll aborts every temporary file and directory of this process that is
// neither committed nor aborted, and returns how many it aborted and the first
// error met. It is safe to call from any goroutine, typically a signal
// handler before exiting; a writer still using an aborted temporary gets
// errors from then on, and its Commit fails.
func AbortAll() (int, error) {
	inFlight.Lock()
	pending := make([]aborter, 0, len(inFlight.set))
	for a := range inFlight.set {
		pending = append(pending, a)
	}
	inFlight.Unlock()

	var first error
	for _, a := range pending {
		if err := a.Abort(); err != nil && first == nil {
			first = err
		}
	}
	return len(pending), first
}

// Pending returns the number of temporaries neither committed nor aborted.
func Pending() int {
	inFlight.Lock()
	defer inFlight.Unlock()
	return len(inFlight.set)
}
