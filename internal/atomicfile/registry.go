package atomicfile

import (
	"path/filepath"
	"sync"
)

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

// openDirs maps the absolute temporary path of every open Dir to it, so
// CreateIn can find the Dir a file is created in.
var openDirs = struct {
	sync.Mutex
	byPath map[string]*Dir
}{byPath: make(map[string]*Dir)}

func register(a aborter) {
	switch t := a.(type) {
	case *File:
		if !t.inDir {
			announce(t.final)
		}
	case *Dir:
		announce(t.final)
	}
	inFlight.Lock()
	inFlight.set[a] = struct{}{}
	inFlight.Unlock()
	if d, ok := a.(*Dir); ok {
		openDirs.Lock()
		openDirs.byPath[d.abs] = d
		openDirs.Unlock()
	}
}

func unregister(a aborter) {
	inFlight.Lock()
	delete(inFlight.set, a)
	inFlight.Unlock()
	if d, ok := a.(*Dir); ok {
		openDirs.Lock()
		delete(openDirs.byPath, d.abs)
		openDirs.Unlock()
	}
}

// dirOf returns the open Dir whose temporary holds path, or nil.
func dirOf(path string) *Dir {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	openDirs.Lock()
	defer openDirs.Unlock()
	for p := filepath.Dir(abs); ; p = filepath.Dir(p) {
		if d := openDirs.byPath[p]; d != nil {
			return d
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
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
