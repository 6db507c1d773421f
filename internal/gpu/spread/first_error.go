package spread

import "sync"

// FirstError keeps the first error of several goroutines.
type FirstError struct {
	mu  sync.Mutex
	err error
}

// Set keeps err if it is the first.
func (f *FirstError) Set(err error) {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
}

// Get returns the first error set, or nil.
func (f *FirstError) Get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}
