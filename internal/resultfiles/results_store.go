package resultfiles

import (
	"errors"
	"fmt"
	"sync"

	"github.com/pathflow/pathflow/internal/results"
)

// blockStore holds the blocks a backend has handed over until every part
// that reads them is done. Part workers wait in it for the block holding a
// source; it never waits itself, so a backend's Sink call returns at once
// and the backend's pool alone bounds memory.
type blockStore struct {
	mu      sync.Mutex
	cond    sync.Cond
	entries []*storedBlock // in no particular order; few (a pool's worth)
	err     error          // set once: the first failure, or errStoreClosed
	closed  bool           // no more blocks will come
}

// storedBlock is a block and the parts still to read it.
type storedBlock struct {
	rows *results.Rows
	// pending counts the parts that have not finished with the block;
	// holders the part workers reading it now.
	pending, holders int
}

func newBlockStore() *blockStore {
	s := &blockStore{}
	s.cond.L = &s.mu
	return s
}

// put stores a block that pending parts will read.
func (s *blockStore) put(rows *results.Rows, pending int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil || s.closed {
		rows.Release()
		if s.err == nil {
			return errors.New("tables: a block arrived after the result was closed")
		}
		return s.err
	}
	s.entries = append(s.entries, &storedBlock{rows: rows, pending: pending})
	s.cond.Broadcast()
	return nil
}

// acquire waits for the block holding source index i and marks the caller
// as one of its readers; it returns an error once the store has failed, or
// when it is closed without that block.
func (s *blockStore) acquire(i int) (*storedBlock, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.err != nil {
			return nil, s.err
		}
		for _, e := range s.entries {
			if i >= e.rows.First && i < e.rows.First+e.rows.Len() {
				e.holders++
				return e, nil
			}
		}
		if s.closed {
			return nil, fmt.Errorf("tables: the backend handed over no block for row %d", i)
		}
		s.cond.Wait()
	}
}

// done is a part's word that it has finished with e: the block goes back to
// its producer when no part needs it any more, or when the store has failed
// and nobody reads it.
func (s *blockStore) done(e *storedBlock) {
	if e == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e.pending--
	e.holders--
	if e.pending == 0 || (s.err != nil && e.holders == 0) {
		s.remove(e)
	}
}

// fail records the first error, wakes every waiting part, and hands back at
// once every block nobody is reading.
func (s *blockStore) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
	for _, e := range append([]*storedBlock(nil), s.entries...) {
		if e.holders == 0 {
			s.remove(e)
		}
	}
	s.cond.Broadcast()
}

// close says no more blocks will come.
func (s *blockStore) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.cond.Broadcast()
}

// releaseLeft releases the blocks still held once every part has ended.
// Only a block overlapping another leaves one behind (no part reads the
// second copy of a row), which fails the store.
func (s *blockStore) releaseLeft() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.entries) > 0 && s.err == nil {
		r := s.entries[0].rows
		s.err = fmt.Errorf("tables: block of rows %d..%d overlaps another block", r.First, r.First+r.Len()-1)
	}
	for len(s.entries) > 0 {
		s.remove(s.entries[0])
	}
}

// failure returns the recorded error, if any.
func (s *blockStore) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// remove drops e and releases its block; s.mu is held.
func (s *blockStore) remove(e *storedBlock) {
	for i, x := range s.entries {
		if x == e {
			s.entries = append(s.entries[:i], s.entries[i+1:]...)
			break
		}
	}
	e.rows.Release()
}
