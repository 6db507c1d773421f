package cpu

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/memlimit"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

func TestPoolBlocks(t *testing.T) {
	for _, tc := range []struct {
		budget, fixed, block int64
		most, want           int
	}{
		{1000, 0, 100, 32, 10},
		{1000, 400, 100, 32, 6},
		{1000, 0, 100, 4, 4},     // no more than asked
		{1000, 2000, 100, 32, 1}, // sweeps alone over budget: still one block
		{50, 0, 100, 32, 1},      // a block over budget: still one
	} {
		if got := poolBlocks(tc.budget, tc.fixed, tc.block, tc.most); got != tc.want {
			t.Errorf("poolBlocks(%d, %d, %d, %d) = %d, want %d", tc.budget, tc.fixed, tc.block, tc.most, got, tc.want)
		}
	}
}

func TestRowMemoryDefault(t *testing.T) {
	defer func(f func() (memlimit.Limit, bool)) { availableMemory = f }(availableMemory)
	availableMemory = func() (memlimit.Limit, bool) { return memlimit.Limit{Total: 64 << 30, Free: 32 << 30}, true }
	if got := New(1).rowMemory(); got != 2<<30 {
		t.Errorf("32 GiB left: budget %d, want a sixteenth, 2 GiB", got)
	}
	availableMemory = func() (memlimit.Limit, bool) { return memlimit.Limit{Total: 1 << 30, Free: 1 << 20}, true }
	if got := New(1).rowMemory(); got != minRowMemory {
		t.Errorf("1 MiB left: budget %d, want the floor %d", got, minRowMemory)
	}
	availableMemory = func() (memlimit.Limit, bool) { return memlimit.Limit{}, false }
	if got := New(1).rowMemory(); got != fallbackRowMemory {
		t.Errorf("no limit known: budget %d, want %d", got, fallbackRowMemory)
	}
	if got := New(1, RowMemory(12345)).rowMemory(); got != 12345 {
		t.Errorf("RowMemory(12345): budget %d", got)
	}
	// Whole ch trees: the default capped, a configured budget as it is.
	availableMemory = func() (memlimit.Limit, bool) { return memlimit.Limit{Total: 128 << 30, Free: 120 << 30}, true }
	if got, all := New(1).treeMemoryBudget(), New(1).rowMemory(); got != treeRowMemory || all != 120<<30/rowMemoryShare {
		t.Errorf("120 GiB left: tree budget %d, want %d; other runs %d, want a sixteenth", got, treeRowMemory, all)
	}
	if got := New(1, RowMemory(8<<30)).treeMemoryBudget(); got != 8<<30 {
		t.Errorf("RowMemory(8 GiB): tree budget %d", got)
	}
}

func TestSplitTreeMemory(t *testing.T) {
	const n = 24_000_000 // the 24M-vertex road graph
	state, row := int64(hierarchy.TreeLanes*8)*n, int64(n)*cellBytes(true, false)
	narrow, narrowRow := int64(hierarchy.TreeLanes*4)*n, int64(n)*(cellBytes(true, false)-4)
	for _, tc := range []struct {
		name                   string
		budget, state, block   int64
		mostStates, mostBlocks int
		want                   treeMemory
	}{
		{"24M, narrow lanes and blocks, the default", treeRowMemory, narrow, narrowRow, 4, 32, treeMemory{1, 3}},
		{"24M, narrow lanes and blocks, 2 GiB: more blocks", 2 << 30, narrow, narrowRow, 4, 32, treeMemory{1, 5}},
		{"24M, keys: wide lanes and blocks, the default", treeRowMemory, state, row, 4, 32, treeMemory{1, 2}},
		{"24M, a sixteenth of 128 GiB", 8 << 30, state, row, 4, 32, treeMemory{2, 14}},
		{"room for everything", 1000, 10, 10, 4, 32, treeMemory{4, 32}},
		{"states fill what blocks leave", 1000, 100, 10, 8, 32, treeMemory{6, 32}},
		{"blocks grow past their claim", 1000, 100, 10, 2, 200, treeMemory{2, 80}},
		{"the budget bounds the states: blocks keep their claim", 1000, 300, 10, 8, 200, treeMemory{1, 50}},
		{"one state over budget: blocks keep their claim", 1000, 5000, 100, 4, 32, treeMemory{1, 5}},
		{"nothing fits: one of each", 1, 100, 100, 4, 32, treeMemory{1, 1}},
		{"fewer chunks than the claim", 1000, 100, 10, 4, 3, treeMemory{4, 3}},
	} {
		if got := splitTreeMemory(tc.budget, tc.state, tc.block, tc.mostStates, tc.mostBlocks); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// Whatever the sizes, the split holds one state and one block at least,
// no more than asked, and no more bytes than the budget or, where one
// state does not fit beside the blocks' claim, one state and that claim.
func TestSplitTreeMemoryStaysWithinItsBound(t *testing.T) {
	r := rand.New(rand.NewPCG(shortesttest.FreshSeed(t), 41))
	for range 10000 {
		budget, state, block := r.Int64N(1<<34)+1, r.Int64N(1<<31)+1, r.Int64N(1<<29)+1
		mostStates, mostBlocks := r.IntN(6)+1, r.IntN(40)+1
		got := splitTreeMemory(budget, state, block, mostStates, mostBlocks)
		held := int64(got.states)*state + int64(got.blocks)*block
		claim := max(1, min(int64(mostBlocks), budget/2/block))
		if got.states < 1 || got.blocks < 1 || got.states > mostStates || got.blocks > mostBlocks || held > max(budget, state+claim*block) {
			t.Fatalf("budget %d, states of %d (at most %d), blocks of %d (at most %d): %+v holds %d bytes", budget, state, mostStates, block, mostBlocks, got, held)
		}
		if got.blocks < int(claim) {
			t.Fatalf("budget %d, blocks of %d: %d blocks, fewer than their claim %d", budget, block, got.blocks, claim)
		}
	}
}

// heldBlocks runs req on b with a sink that keeps every block a while
// before releasing it from another goroutine, and returns the most blocks
// it held at once.
func heldBlocks(t *testing.T, b *Backend, req backend.Request) int {
	t.Helper()
	var (
		mu         sync.Mutex
		held, most int
		releases   sync.WaitGroup
	)
	err := b.Run(context.Background(), req, func(rows *results.Rows) error {
		mu.Lock()
		held++
		most = max(most, held)
		mu.Unlock()
		releases.Go(func() {
			time.Sleep(2 * time.Millisecond)
			mu.Lock()
			held--
			mu.Unlock()
			rows.Release()
		})
		return nil
	})
	releases.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return most
}

// A row budget bounds the blocks in flight to what it holds, never below
// one block and one sweep, on any number of workers: for Dijkstra all of
// it, for whole ch trees what the sweep states leave or the half the
// blocks claim first (splitTreeMemory); the rows stay those of an
// unbounded run.
func TestRowMemoryBoundsTheRowsInFlight(t *testing.T) {
	e, _, err := generate.Road(40, 3)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(e.N)
	r := rand.New(rand.NewPCG(shortesttest.FreshSeed(t), 32))
	sources := sampleSources(r, e.N, 29)
	rowBytes := n * cellBytes(true, false)
	sweepBytes := hierarchy.TreeLanes * 4 * n // narrow lanes: distances of 4 bytes
	for _, alg := range []string{backend.AlgorithmCH, backend.AlgorithmDijkstra} {
		rowBytes := rowBytes
		if alg == backend.AlgorithmCH {
			rowBytes -= 4 * n // whole ch trees keep int32 distances
		}
		req, err := requestFor(e, backend.Algorithm{Name: alg}, sources, true)
		if err != nil {
			t.Fatal(err)
		}
		ref := New(1)
		ref.blockValues = int(n)
		wantDist, wantParent, err := narrowedRows(t, ref, req)
		if err != nil {
			t.Fatal(err)
		}
		// The budgets hold one block, 3 blocks beside one sweep, 5
		// beside three; a ch run holds one sweep at least, Dijkstra none.
		for _, budget := range []int64{1, sweepBytes + 3*rowBytes, 3*sweepBytes + 5*rowBytes} {
			rows := budget
			if alg == backend.AlgorithmCH {
				rows = max(budget-sweepBytes, budget/2)
			} else {
				budget = max(1, budget-sweepBytes)
				rows = budget
			}
			for _, workers := range []int{1, 4, 8} {
				b := New(workers, RowMemory(budget))
				b.blockValues = int(n) // a row per block
				if most := heldBlocks(t, b, req); most > 1 && int64(most)*rowBytes > rows {
					t.Errorf("%s, %d workers, budget %d: %d blocks of %d bytes held at once, more than the %d bytes left for rows", alg, workers, budget, most, rowBytes, rows)
				}
				dist, parent, err := narrowedRows(t, b, req)
				if err != nil {
					t.Fatal(err)
				}
				for i := range sources {
					if !slices.Equal(dist[i], wantDist[i]) || !slices.Equal(parent[i], wantParent[i]) {
						t.Fatalf("%s, %d workers, budget %d: row %d differs from an unbounded run's", alg, workers, budget, i)
					}
				}
			}
		}
	}
}

// Whole trees find parents from the graph's out-arcs exactly when the
// budget leaves no room for the reverse graph beside the sweep states and
// blocks, report it, and give the rows an unbounded run gives.
func TestParentsOnOutArcsWhereTheBudgetIsShort(t *testing.T) {
	e, _, err := generate.Road(40, 5)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	n, m := int64(e.N), int64(len(g.Targets))
	reverse := 8*(n+1) + 8*m
	if got := parentFinderBytes(g, false, false); got != reverse {
		t.Fatalf("reverse graph of %d vertices and %d arcs: %d bytes, want %d", n, m, got, reverse)
	}
	if got := parentFinderBytes(g, false, true); got != 0 {
		t.Fatalf("parents on out-arcs hold %d bytes, want 0", got)
	}
	req, err := requestFor(e, backend.Algorithm{Name: backend.AlgorithmCH}, []int32{0, 7, 1500, 1599}, true)
	if err != nil {
		t.Fatal(err)
	}
	ref := New(1)
	ref.blockValues = 8 * int(n)
	wantDist, wantParent, err := narrowedRows(t, ref, req)
	if err != nil {
		t.Fatal(err)
	}
	sweep := hierarchy.TreeLanes * 4 * n    // narrow lanes: distances of 4 bytes
	row := n * (cellBytes(true, false) - 4) // int32 distances and parents
	// On 2 workers a plan holds at most 3 states and 4 blocks (one a
	// source); the budgets give them the reverse graph's room beside
	// them, a byte short of it, and one byte.
	most := 3*sweep + 4*row
	if reverse >= sweep {
		t.Fatalf("reverse graph of %d bytes, a state of %d: the budgets below would hold another state", reverse, sweep)
	}
	for _, c := range []struct {
		budget int64
		out    bool
	}{{most + reverse, false}, {most + reverse - 1, true}, {1, true}} {
		var facts TreeMemoryFacts
		req.Facts = func(key string, v any) {
			if key == treeMemoryFactKey {
				facts = v.(TreeMemoryFacts)
			}
		}
		b := New(2, RowMemory(c.budget))
		b.blockValues = int(n)
		dist, parent, err := narrowedRows(t, b, req)
		if err != nil {
			t.Fatal(err)
		}
		if facts.ParentsOnOutArcs != c.out || c.budget > 1 && facts.planned() != most {
			t.Fatalf("budget %d: plan %+v, want parents on out-arcs %v beside 3 states and 4 blocks", c.budget, facts, c.out)
		}
		for i := range req.Sources {
			if !slices.Equal(dist[i], wantDist[i]) || !slices.Equal(parent[i], wantParent[i]) {
				t.Fatalf("budget %d: row %d differs from an unbounded run's", c.budget, i)
			}
		}
	}
}
