//go:build cuda

package allpairs_test

import (
	"context"
	"errors"
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/datasets/benchgraphs"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/results"
)

// The row-slab and out-of-core schedules against the one-device run: the
// same distances and parents, byte for byte, on random graphs (n not a
// multiple of the tile, negative weights, isolated vertices) and on
// Gnutella; the same negative cycles. Row slabs run on one GPU listed
// several times (a context per entry), so they are proven on any GPU
// machine; out of core is forced by a memory limit.

// rowSeed makes row digests comparable between runs of one test binary.
var rowSeed = maphash.MakeSeed()

// fwDigests runs all pairs of e on b and returns each row's digest
// (distances, then parents) and where the matrix was placed; check, when
// set, sees every block first.
func fwDigests(t *testing.T, b *gpu.Backend, e *graph.EdgeList, withParents bool, check func(*results.Rows) error) ([]uint64, string, error) {
	t.Helper()
	r, err := b.PrepareAllPairs(e, backend.Algorithm{Variant: allpairs.VariantFast}, withParents)
	if err != nil {
		return nil, "", err
	}
	return runDigests(t, r, e, check)
}

// outOfCoreDigests is fwDigests out of core with super-tiles of edge
// super, whatever the graph's size: small graphs, whose whole matrix
// takes less memory than the out-of-core buffers, test every super-tile
// shape too.
func outOfCoreDigests(t *testing.T, b *gpu.Backend, e *graph.EdgeList, withParents bool, super int64, check func(*results.Rows) error) ([]uint64, string, error) {
	t.Helper()
	r, err := allpairs.PrepareOutOfCore(b.Stagers(), b.AllPairsOptions(), e, withParents, super)
	if err != nil {
		return nil, "", err
	}
	return runDigests(t, r, e, check)
}

// runDigests computes r and digests its rows (see fwDigests).
func runDigests(t *testing.T, r *allpairs.Run, e *graph.EdgeList, check func(*results.Rows) error) ([]uint64, string, error) {
	t.Helper()
	defer backendtest.CloseChecked(t, "the run", r)
	if _, err := r.Compute(context.Background()); err != nil {
		return nil, r.Placement(), err
	}
	digests := make([]uint64, e.N)
	_, err := r.Stream(context.Background(), backendtest.Vertices(e.N), func(rows *results.Rows) error {
		defer rows.Release()
		if check != nil {
			if err := check(rows); err != nil {
				return err
			}
		}
		w := rows.Width
		for i := range rows.Len() {
			var h maphash.Hash
			h.SetSeed(rowSeed)
			h.Write(int32Bytes(rows.Dist32[i*w : (i+1)*w]))
			if rows.Parent != nil {
				h.Write(int32Bytes(rows.Parent[i*w : (i+1)*w]))
			}
			digests[rows.First+i] = h.Sum64()
		}
		return nil
	})
	return digests, r.Placement(), err
}

// int32Bytes is s's memory.
func int32Bytes(s []int32) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*4)
}

// sameRows compares two runs' digests and names the first row that
// differs.
func sameRows(t *testing.T, what string, got, want []uint64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: row %d differs from the one-device run", what, i)
			return
		}
	}
}

// TestSpreadRunsEqualOneDevice runs row slabs on two and three contexts
// of GPU 0, and out of core with 128- and 256-vertex super-tiles, against
// one device and the reference.
func TestSpreadRunsEqualOneDevice(t *testing.T) {
	one := backendtest.WithStrategy(allpairs.ParentsRecover, true)
	two := backendtest.Open(t, gpu.WithDevices([]int{0, 0}), gpu.WithParentStrategy(allpairs.ParentsRecover))
	three := backendtest.Open(t, gpu.WithDevices([]int{0, 0, 0}), gpu.WithParentStrategy(allpairs.ParentsRecover))
	cases := append(randomCases(), randomCase{name: "seven tiles", n: 850, arcs: 6000, lo: 1, hi: 90, disconnectedExtras: 30})
	for _, seed := range []uint64{3, backendtest.FreshSeed(t)} {
		r := rand.New(rand.NewPCG(seed, 11))
		for _, rc := range cases {
			e := rc.graph(r)
			want, _ := graphtest.FloydWarshall(e)
			for _, withParents := range []bool{false, true} {
				check := against(e, graphtest.MatrixRows(e.N, want), withParents)
				base, place, err := fwDigests(t, one, e, withParents, check)
				if err != nil || place != "one device" {
					t.Fatalf("seed %d %s: one device: %v (%s)", seed, rc.name, err, place)
				}
				for _, run := range []struct {
					name string
					run  func() ([]uint64, string, error)
				}{
					{"2 contexts", func() ([]uint64, string, error) { return fwDigests(t, two, e, withParents, check) }},
					{"3 contexts", func() ([]uint64, string, error) { return fwDigests(t, three, e, withParents, check) }},
					{"out of core/128", func() ([]uint64, string, error) { return outOfCoreDigests(t, one, e, withParents, 128, check) }},
					{"out of core/256", func() ([]uint64, string, error) { return outOfCoreDigests(t, one, e, withParents, 256, check) }},
				} {
					got, place, err := run.run()
					what := rc.name + " " + run.name
					if withParents {
						what += " with parents"
					}
					if err != nil {
						t.Errorf("seed %d %s: %v", seed, what, err)
						continue
					}
					// Slabs of a one-tile graph leave the other devices idle.
					if want := run.name[:3] == "out"; want != (place == "out of core") {
						t.Errorf("seed %d %s: placed %s", seed, what, place)
					}
					sameRows(t, what, got, base)
				}
			}
		}
	}
}

// TestSpreadRunsReportNegativeCycles plants a negative cycle: every
// schedule reports a vertex on it and hands over no rows.
func TestSpreadRunsReportNegativeCycles(t *testing.T) {
	r := rand.New(rand.NewPCG(backendtest.FreshSeed(t), 13))
	two := backendtest.Open(t, gpu.WithDevices([]int{0, 0}))
	for _, n := range []int32{300, 700} {
		e, cycle := negativeCycleGraph(r, n)
		for name, run := range map[string]func(check func(*results.Rows) error) error{
			"row slabs": func(check func(*results.Rows) error) error {
				_, _, err := fwDigests(t, two, e, false, check)
				return err
			},
			"out of core": func(check func(*results.Rows) error) error {
				_, _, err := outOfCoreDigests(t, backendtest.Default(), e, false, 128, check)
				return err
			},
		} {
			rows := 0
			err := run(func(*results.Rows) error { rows++; return nil })
			var neg *backend.NegativeCycleError
			if !errors.As(err, &neg) || !slices.Contains(cycle, neg.Vertex) {
				t.Errorf("n %d %s: error %v, want a backend.NegativeCycleError on %v", n, name, err, cycle)
			}
			if rows != 0 {
				t.Errorf("n %d %s: %d blocks handed over before the negative cycle", n, name, rows)
			}
		}
	}
}

// TestSpreadRunsOnGnutella compares row slabs and out of core (a quarter
// of the matrix as the limit) with one device on Gnutella04 and 25.
func TestSpreadRunsOnGnutella(t *testing.T) {
	if testing.Short() {
		t.Skip("Gnutella all pairs three ways takes seconds")
	}
	two := backendtest.Open(t, gpu.WithDevices([]int{0, 0}), gpu.WithParentStrategy(allpairs.ParentsRecover))
	for _, name := range []string{"p2p-Gnutella04.txt", "p2p-Gnutella25.txt"} {
		path, ok := datasets.MirrorFile(name)
		if !ok {
			t.Logf("%s not found in %s (set %s)", name, datasets.MirrorDir(), datasets.MirrorEnv)
			continue
		}
		e, err := benchgraphs.ReadSNAP(path)
		if err != nil {
			t.Fatal(err)
		}
		pitch := (int64(e.N) + allpairs.FastTile - 1) / allpairs.FastTile * allpairs.FastTile
		quarter := backendtest.Open(t, gpu.WithMemoryLimit(pitch*pitch), gpu.WithParentStrategy(allpairs.ParentsRecover))
		base, _, err := fwDigests(t, backendtest.WithStrategy(allpairs.ParentsRecover, true), e, true, nil)
		if err != nil {
			t.Fatalf("%s one device: %v", name, err)
		}
		for what, b := range map[string]*gpu.Backend{"row slabs": two, "out of core": quarter} {
			got, place, err := fwDigests(t, b, e, true, nil)
			if err != nil || place != what {
				t.Fatalf("%s %s: %v (placed %s)", name, what, err, place)
			}
			sameRows(t, name+" "+what, got, base)
		}
	}
}
