package backend

import (
	"fmt"
	"sync"
)

// Implementations is one backend's table of the algorithms it runs: each
// algorithm file of the backend registers its implementation (of the
// backend's own type T) under the algorithm's name from an init function,
// so that the backend's Choose and Run look an algorithm up instead of
// switching over names, and adding one touches no central file. The zero
// value is empty and ready to use; it is safe for concurrent use.
type Implementations[T any] struct {
	mu     sync.RWMutex
	byName map[string]T
}

// Register adds impl under name, which must be in the algorithm table
// (Describe); an unknown name or a second registration panics, as a
// programming error.
func (r *Implementations[T]) Register(name string, impl T) {
	if _, ok := Describe(name); !ok {
		panic(fmt.Sprintf("backend: %q is not in the algorithm table (internal/backend/algorithms.go)", name))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[name]; dup {
		panic(fmt.Sprintf("backend: algorithm %q registered twice", name))
	}
	if r.byName == nil {
		r.byName = map[string]T{}
	}
	r.byName[name] = impl
}

// Lookup returns the implementation registered under name.
func (r *Implementations[T]) Lookup(name string) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	impl, ok := r.byName[name]
	return impl, ok
}

// Names lists the registered algorithms in the table's order.
func (r *Implementations[T]) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var names []string
	for _, name := range Algorithms() {
		if _, ok := r.byName[name]; ok {
			names = append(names, name)
		}
	}
	return names
}
