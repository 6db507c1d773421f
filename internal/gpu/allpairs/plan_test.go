package allpairs

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

func TestPlanVariants(t *testing.T) {
	e := graphtest.LineGraph(300, 5)
	for _, tc := range []struct {
		alg          backend.Algorithm
		variant      string
		tile, pitch  int64
		wantErr      string
		notSupported bool
	}{
		{alg: backend.Algorithm{}, variant: VariantFast, tile: 128, pitch: 384},
		{alg: backend.Algorithm{Name: AllPairsFamily, Variant: "fast", TileEdge: 128}, variant: VariantFast, tile: 128, pitch: 384},
		{alg: backend.Algorithm{Variant: "blocked"}, variant: VariantBlocked, tile: 32, pitch: 320},
		{alg: backend.Algorithm{Variant: "blocked", TileEdge: 7}, variant: VariantBlocked, tile: 7, pitch: 301},
		{alg: backend.Algorithm{Variant: "naive"}, variant: VariantNaive, tile: 1, pitch: 300},
		{alg: backend.Algorithm{Variant: "row"}, variant: VariantRow, tile: 1, pitch: 300},
		{alg: backend.Algorithm{Variant: "blocked", TileEdge: 33}, wantErr: "outside 2..32", notSupported: true},
		{alg: backend.Algorithm{Variant: "blocked", TileEdge: 1}, wantErr: "outside 2..32", notSupported: true},
		{alg: backend.Algorithm{Variant: "fast", TileEdge: 64}, wantErr: "fixed block size", notSupported: true},
		{alg: backend.Algorithm{Variant: "naive", TileEdge: 8}, wantErr: "no block size", notSupported: true},
		{alg: backend.Algorithm{Variant: "johnson"}, wantErr: "have fast, blocked, naive, row", notSupported: true},
		{alg: backend.Algorithm{Name: "dijkstra"}, wantErr: "dijkstra", notSupported: true},
	} {
		p, err := planAllPairs(e, tc.alg, false, ParentsAuto)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%+v: error %v, want one containing %q", tc.alg, err, tc.wantErr)
			}
			if tc.notSupported != errors.Is(err, device.ErrNotSupported) {
				t.Errorf("%+v: errors.Is(err, device.ErrNotSupported) = %v", tc.alg, !tc.notSupported)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tc.alg, err)
			continue
		}
		if p.variant != tc.variant || p.tile != tc.tile || p.pitch != tc.pitch {
			t.Errorf("%+v: variant %s tile %d pitch %d, want %s %d %d", tc.alg, p.variant, p.tile, p.pitch, tc.variant, tc.tile, tc.pitch)
		}
	}
}

func TestPlanNeedsInt64(t *testing.T) {
	n := int32(1000)
	// (n-1) * w reaches Inf32 for w = Inf32 / 999 + 1.
	big := graph.Inf32/(n-1) + 1
	if _, err := planAllPairs(graphtest.LineGraph(n, big), backend.Algorithm{}, false, ParentsAuto); !errors.Is(err, device.ErrNeedsInt64) {
		t.Fatalf("weights up to %d on %d vertices: error %v, want device.ErrNeedsInt64", big, n, err)
	}
	if _, err := planAllPairs(graphtest.LineGraph(n, big-1), backend.Algorithm{}, false, ParentsAuto); err != nil {
		t.Fatalf("weights up to %d on %d vertices: %v", big-1, n, err)
	}
	// Negative weights need twice the headroom.
	neg := graphtest.LineGraph(n, -(graph.Inf32/(2*(n-1)) + 1))
	if _, err := planAllPairs(neg, backend.Algorithm{}, false, ParentsAuto); !errors.Is(err, device.ErrNeedsInt64) {
		t.Fatalf("negative weights at half the limit: error %v, want device.ErrNeedsInt64", err)
	}
	p, err := planAllPairs(graphtest.LineGraph(n, -3), backend.Algorithm{}, false, ParentsAuto)
	if err != nil || !p.negative || p.threshold != 3*int64(n-1) {
		t.Fatalf("weight -3: plan %+v, err %v; want negative with threshold %d", p, err, 3*(n-1))
	}
}

func TestPlanParentStrategy(t *testing.T) {
	sparse := graphtest.LineGraph(200, 4)
	negative := graphtest.LineGraph(200, -4)
	zero := graphtest.LineGraph(200, 0)
	dense, denseHeavy := graph.NewEdgeList(20, 400), graph.NewEdgeList(20, 400)
	for u := int32(0); u < 20; u++ {
		for v := int32(0); v < 20; v++ {
			dense.Add(u, v, 1)
			denseHeavy.Add(u, v, 1<<20)
		}
	}
	for _, tc := range []struct {
		name     string
		e        *graph.EdgeList
		variant  string
		strategy ParentStrategy
		want     parentMethod
	}{
		{"fast auto sparse", sparse, VariantFast, ParentsAuto, parentsFirstTight},
		{"fast auto dense small distances", dense, VariantFast, ParentsAuto, parentsPacked},
		{"fast auto sparse large distances", graphtest.LineGraph(200, 30000), VariantFast, ParentsAuto, parentsFirstTight},
		{"fast auto dense large distances", denseHeavy, VariantFast, ParentsAuto, parentsTracked},
		{"fast auto negative", negative, VariantFast, ParentsAuto, parentsSearch},
		{"fast auto zero weights", zero, VariantFast, ParentsAuto, parentsSearch},
		{"fast track positive", sparse, VariantFast, ParentsTrack, parentsTracked},
		{"fast track zero weights", zero, VariantFast, ParentsTrack, parentsSearch},
		{"fast recover dense", dense, VariantFast, ParentsRecover, parentsFirstTight},
		{"fast recover negative", negative, VariantFast, ParentsRecover, parentsSearch},
		{"blocked positive", sparse, VariantBlocked, ParentsRecover, parentsTracked},
		{"blocked zero weights", zero, VariantBlocked, ParentsAuto, parentsSearch},
		{"naive zero weights", zero, VariantNaive, ParentsAuto, parentsTracked},
		{"row negative", negative, VariantRow, ParentsRecover, parentsTracked},
	} {
		p, err := planAllPairs(tc.e, backend.Algorithm{Variant: tc.variant}, true, tc.strategy)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if p.method != tc.want {
			t.Errorf("%s: parent method %d, want %d", tc.name, p.method, tc.want)
		}
		if p.derives() != (tc.want == parentsFirstTight || tc.want == parentsSearch) {
			t.Errorf("%s: derives() = %v", tc.name, p.derives())
		}
	}
	p, err := planAllPairs(sparse, backend.Algorithm{}, false, ParentsRecover)
	if err != nil || p.method != parentsNone {
		t.Errorf("without parents: method %d, err %v", p.method, err)
	}
}

func TestPlanRejectsInvalidGraph(t *testing.T) {
	e := graph.NewEdgeList(2, 1)
	e.Add(0, 5, 1)
	if _, err := planAllPairs(e, backend.Algorithm{}, false, ParentsAuto); err == nil || !strings.HasPrefix(err.Error(), "gpu: ") {
		t.Fatalf("arc to vertex 5 of 2: error %v", err)
	}
}

// TestPlanCoversAndCountsTheMatrix checks the plan's arithmetic on random
// sizes: the tiles cover the n vertices with less than one tile of
// padding, and the device memory counted holds the pitched matrices and
// the arcs.
func TestPlanCoversAndCountsTheMatrix(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 6))
	for range 200 {
		n := 1 + r.Int32N(3000)
		e := graphtest.LineGraph(n, 1+r.Int32N(100))
		variant := Variants[r.IntN(len(Variants))]
		parents := r.IntN(2) == 0
		p, err := planAllPairs(e, backend.Algorithm{Variant: variant}, parents, ParentStrategy(r.IntN(3)))
		if err != nil {
			t.Fatalf("%s on %d vertices: %v", variant, n, err)
		}
		if p.pitch < p.n || p.pitch-p.n >= p.tile || p.pitch%p.tile != 0 {
			t.Fatalf("%s on %d vertices: pitch %d with tile %d", variant, n, p.pitch, p.tile)
		}
		matrices := int64(1)
		if parents {
			matrices = 2
		}
		if need := matrices*4*p.pitch*p.pitch + 12*p.m; p.deviceBytes() < need {
			t.Fatalf("%s on %d vertices, parents %t: %d bytes counted, the buffers take %d", variant, n, parents, p.deviceBytes(), need)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for b, want := range map[int64]string{512: "512 B", 2048: "2.0 KiB", 3 << 30: "3.0 GiB", 1536 << 20: "1.5 GiB"} {
		if got := device.FormatBytes(b); got != want {
			t.Errorf("device.FormatBytes(%d) = %q, want %q", b, got, want)
		}
	}
	err := &device.OutOfMemoryError{What: "distance matrix", Need: 4 << 30, Free: 1 << 30, Total: 80 << 30}
	if got := err.Error(); got != "gpu: distance matrix needs 4.0 GiB of device memory, only 1.0 GiB of 80.0 GiB is free" {
		t.Errorf("device.OutOfMemoryError = %q", got)
	}
}
