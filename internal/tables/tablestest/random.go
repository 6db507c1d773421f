package tablestest

import (
	"math/rand/v2"
	"testing"
	"time"
)

// Seeds returns fixed seeds plus a fresh one, logged so a failure can be
// replayed.
func Seeds(t testing.TB) []uint64 {
	fresh := uint64(time.Now().UnixNano())
	t.Logf("fresh seed %d", fresh)
	return []uint64{1, 2, fresh}
}

// NewRand returns the generator every table test draws from for seed, so
// that a logged seed reproduces a failing case exactly.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }
