package sssp

import "sync"

// shared is a value the devices of one request compute once: the first
// to ask computes it, the others wait for it and reuse it.
type shared[T any] struct {
	once  sync.Once
	value T
	err   error
}

// get returns the value, computing it with compute on the first call.
func (s *shared[T]) get(compute func() (T, error)) (T, error) {
	s.once.Do(func() { s.value, s.err = compute() })
	return s.value, s.err
}
