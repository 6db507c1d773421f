package compute

import (
	"maps"
	"sync"
)

// runFacts collects what a backend reports through backend.Request.Facts,
// from any of its goroutines, for the log and the manifest.
type runFacts struct {
	mu    sync.Mutex
	facts map[string]any
}

// add records value under key; a later report of the same key replaces it.
func (f *runFacts) add(key string, value any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.facts == nil {
		f.facts = map[string]any{}
	}
	f.facts[key] = value
}

// all returns a copy of the facts, nil when there are none.
func (f *runFacts) all() map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.facts)
}
