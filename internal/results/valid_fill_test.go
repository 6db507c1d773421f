package results

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// TestFillMatchesCellByCell: a block's distances and parents turned into
// column values and validity bits a byte at a time are those a cell at a
// time gives, for runs starting anywhere in a bitmap byte and of every
// length around a byte, with no cell, every cell and some cells present,
// beside bits of other runs already set.
func TestFillMatchesCellByCell(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := range 2000 {
		n, at := rng.IntN(40), rng.IntN(20)
		share := []float64{0, 1, 0.5, 0.1}[trial%4]
		narrow, wide, parents := make([]int32, n), make([]int64, n), make([]int32, n)
		for k := range n {
			present := rng.Float64() < share
			narrow[k], wide[k], parents[k] = graph.Inf32+rng.Int32N(3), paths.Unreachable, paths.NoParent
			if present {
				narrow[k], wide[k], parents[k] = rng.Int32N(1000)-10, rng.Int64N(1<<40)-5, rng.Int32N(1000)
			}
		}
		// The bits before at and after at+n belong to other runs.
		fresh := func() []byte {
			b := make([]byte, (at+n+7)/8+1)
			for j := 0; j < at; j++ {
				b[j>>3] |= byte(rng.IntN(2)) << (j & 7)
			}
			return b
		}
		check := func(name string, got []byte, gotMissing int, want []byte, wantMissing int) {
			t.Helper()
			if !slices.Equal(got, want) || gotMissing != wantMissing {
				t.Fatalf("trial %d (%d cells at %d), %s: bits %08b missing %d, cell by cell %08b missing %d",
					trial, n, at, name, got, gotMissing, want, wantMissing)
			}
		}
		for _, d := range []Distances{{narrow: narrow}, {wide: wide}} {
			bits := fresh()
			want, wantBits := make([]int64, n), slices.Clone(bits)
			wantMissing := 0
			for k := range n {
				if v, ok := d.At(k); ok {
					want[k] = v
					wantBits[(at+k)>>3] |= 1 << ((at + k) & 7)
				} else {
					wantMissing++
				}
			}
			got := make([]int64, n)
			for k := range got {
				got[k] = -77 // a value left from before
			}
			missing := d.Fill(got, bits, at, 0, n)
			check("distances", bits, missing, wantBits, wantMissing)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d: distances %v, want %v", trial, got, want)
			}
		}
		bits := fresh()
		want, wantBits, wantMissing := make([]int32, n), slices.Clone(bits), 0
		for k, p := range parents {
			if p != paths.NoParent {
				want[k] = p
				wantBits[(at+k)>>3] |= 1 << ((at + k) & 7)
			} else {
				wantMissing++
			}
		}
		got := make([]int32, n)
		missing := FillParents(got, bits, at, parents)
		check("parents", bits, missing, wantBits, wantMissing)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: parents %v, want %v", trial, got, want)
		}
	}
}

// BenchmarkFill: 2^20 narrow distances, a tenth with a path, scattered,
// into values and validity bits, per call.
func BenchmarkFill(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]int32, 1<<20)
	for k := range src {
		src[k] = graph.Inf32
		if rng.IntN(10) == 0 {
			src[k] = rng.Int32N(1 << 20)
		}
	}
	d := Distances{narrow: src}
	dst, valid := make([]int64, len(src)), make([]byte, len(src)/8+1)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		clear(valid)
		d.Fill(dst, valid, 3, 0, len(src))
	}
}
