package cpu

import (
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/memlimit"
)

// rowMemoryShare is the share of the memory the machine has left (as
// memlimit.Available reads it when a run starts) that a run's rows in
// flight may hold by default: the blocks of its pool and, for whole ch
// trees, its PHAST sweeps. One sixteenth leaves room for the graph, the
// hierarchy, the writers' buffers and the collector's headroom (the Go
// heap grows to about twice what is live before it collects).
const rowMemoryShare = 16

// minRowMemory and fallbackRowMemory bound the default budget: no less
// than minRowMemory however little is left, and fallbackRowMemory where
// the machine reports no limit.
const (
	minRowMemory      = 256 << 20
	fallbackRowMemory = 1 << 30
)

// treeRowMemory caps the default budget of whole ch trees. Their sweeps
// cost a small part of what writing their rows costs (8 rows a sweep;
// at 24M vertices a sweep takes about a second on one core, the 192M
// output rows of its 8 trees tens of core-seconds), so the writers set
// the pace, and a sweep state and a few blocks keep them busy: half of
// this cap holds 640 MiB of rows, 84M cells at 8 bytes (an int32 distance
// and a parent, the blocks of plain distances), more than 16 writers read
// at once (each a part of tables.DefaultPartRows rows: 64M cells). At 24M
// vertices that is one sweep state (0.77 GB) and 3 blocks of one row
// (192 MB each), 1.34 GB, the plan of the 2 GiB cap before; the cap is
// lower so that the room the narrower blocks and states leave goes
// off the peak rather than to more blocks (2 GiB would hold 5: 1.73 GB). Rows of key sums
// (12 bytes a cell) get 2 blocks at 24M. A larger budget would only
// raise the peak: the process also maps the graph's and the hierarchy's
// arrays the sweeps and parents read (1.4 GB at 24M), and the collector
// keeps a quarter more than the plan (heapLimit). Searches that compute
// rows in their blocks (Dijkstra, Bellman-Ford) keep the uncapped
// default: there a block is a busy worker.
const treeRowMemory = 5 << 28

// availableMemory is memlimit.Available, replaced by tests.
var availableMemory = memlimit.Available

// Option configures a Backend made by New.
type Option func(*Backend)

// RowMemory bounds the bytes a run's rows in flight may hold: the blocks
// of its pool (computed, or with the consumer) and, for whole ch trees,
// its PHAST sweeps. A run always holds at least one block and one sweep,
// however small the bound, and whole ch trees keep up to half of it for
// their blocks even where one sweep state takes more than the rest
// (splitTreeMemory). bytes <= 0 keeps the default, a sixteenth of the
// memory left when the run starts, and for whole ch trees no more than
// 2 GiB (see treeRowMemory).
func RowMemory(bytes int64) Option {
	return func(b *Backend) { b.rowBytes = bytes }
}

// treeMemoryBudget is the budget of a run of whole ch trees: the
// configured one, or the default capped at treeRowMemory.
func (b *Backend) treeMemoryBudget() int64 {
	if b.rowBytes > 0 {
		return b.rowBytes
	}
	return min(b.rowMemory(), treeRowMemory)
}

// rowMemory is the budget of one run's rows in flight: the configured
// one, or the default RowMemory describes.
func (b *Backend) rowMemory() int64 {
	if b.rowBytes > 0 {
		return b.rowBytes
	}
	l, ok := availableMemory()
	if !ok {
		return fallbackRowMemory
	}
	return max(minRowMemory, l.Free/rowMemoryShare)
}

// cellBytes is what one cell of a block holds: an int64 distance, an
// int32 parent when asked for, an int32 vertex in a sparse block. Blocks
// of whole ch trees hold their distances in int32 where they fit, 4 bytes
// less (chRun.narrowCells).
func cellBytes(parents, sparse bool) int64 {
	b := int64(8)
	if parents {
		b += 4
	}
	if sparse {
		b += 4
	}
	return b
}

// treeMemory is how a whole-tree run in blocks smaller than a sweep
// spends its row budget: states PHAST sweep states and blocks blocks of
// the pool.
type treeMemory struct{ states, blocks int }

// splitTreeMemory divides budget between sweep states of stateBytes and
// blocks of blockBytes. The blocks claim up to half of it first (at
// least one, at most mostBlocks), since a block is what a worker and the
// writers work on; the states take what is left, at least one and at
// most mostStates. Where the states reach mostStates the blocks then grow
// into what they leave, up to mostBlocks; where the budget bounds the
// states instead, the rows are large against it and the blocks keep their
// claim, half the budget, which already holds more rows than the writers
// read at once (treeRowMemory): the room beside the states is left
// unspent, so that a smaller state makes a smaller run rather than more
// rows in flight. So the states and blocks hold at most budget
// bytes, or, when one state alone takes more than the budget less the
// blocks' claim, one state and the claim: s + max(blockBytes, budget/2)
// at worst. With a state of 32 N bytes (hierarchy.TreeSweepBytes, narrow
// lanes) this is what bounds a large graph's whole trees: at 24M vertices
// and the 1.25 GiB default, one state (0.77 GB) and 3 blocks of one row
// with parents at 8 bytes a cell (192 MB each), 1.34 GB.
func splitTreeMemory(budget, stateBytes, blockBytes int64, mostStates, mostBlocks int) treeMemory {
	blockBytes, stateBytes = max(1, blockBytes), max(1, stateBytes)
	clamp := func(v int64, lo, hi int) int { return int(max(int64(lo), min(int64(hi), v))) }
	mostBlocks, mostStates = max(1, mostBlocks), max(1, mostStates)
	claim := clamp(budget/2/blockBytes, 1, mostBlocks)
	states := clamp((budget-int64(claim)*blockBytes)/stateBytes, 1, mostStates)
	if states < mostStates {
		return treeMemory{states: states, blocks: claim}
	}
	blocks := clamp((budget-int64(states)*stateBytes)/blockBytes, claim, mostBlocks)
	return treeMemory{states: states, blocks: blocks}
}

// poolBlocks is how many blocks of blockBytes fit in budget beside fixed
// bytes held otherwise (sweeps): at least one, so that a run always
// progresses, and at most most.
func poolBlocks(budget, fixed, blockBytes int64, most int) int {
	fit := (budget - fixed) / max(1, blockBytes)
	return int(max(1, min(int64(most), fit)))
}

// treeMemoryFactKey is the backend.Request.Facts key under which a run of
// whole ch trees in blocks smaller than a sweep reports its TreeMemoryFacts.
const treeMemoryFactKey = "tree_memory"

// TreeMemoryFacts is what a run of whole ch trees reports of its memory
// plan, so that a run's manifest says what bounded its peak: the budget,
// how many sweep states and blocks it held at most, and their sizes.
type TreeMemoryFacts struct {
	BudgetBytes int64 `json:"budget_bytes"`
	States      int   `json:"sweep_states"`
	StateBytes  int64 `json:"sweep_state_bytes"`
	Blocks      int   `json:"blocks"`
	BlockBytes  int64 `json:"block_bytes"`
	// ParentsOnOutArcs says that the rows' parents were found from the
	// graph's out-arcs, the budget leaving no room for a reverse graph
	// (parentsOnOutArcs); ParentBytes is what the parent finder holds.
	ParentsOnOutArcs bool  `json:"parents_on_out_arcs"`
	ParentBytes      int64 `json:"parent_finder_bytes"`
	// HeapLimit is the Go collector's limit the run held to (heapLimit).
	HeapLimit HeapLimitFacts `json:"heap_limit"`
}

// planned is the bytes of the sweep states and blocks of f's plan.
func (f TreeMemoryFacts) planned() int64 {
	return int64(f.States)*f.StateBytes + int64(f.Blocks)*f.BlockBytes
}

// parentsOnOutArcs says whether whole rows whose sweep states and blocks
// take planned bytes of budget find their parents from g's out-arcs: when
// the reverse graph the rule over in-arcs needs does not fit in what the
// plan leaves. Over out-arcs a row's parents cost about twice the time
// (every arc is read, where the in-arc rule stops at a vertex's first
// tight arc: 27 ms against 14 ms a row of a 1M-vertex road-like graph,
// paths.BenchmarkParents), so a run with room keeps the reverse graph.
func parentsOnOutArcs(budget, planned int64, g *graph.CSR, keyed bool) bool {
	return budget-planned < parentFinderBytes(g, keyed, false)
}

// parentFinderBytes is what a run's parent finder holds on the heap for
// g: over in-arcs, the reverse graph (int64 offsets, int32 tails and
// weights) and, for rows of key sums, its metric and the keys of both
// directions; over out-arcs, nothing but the out-arcs' keys.
func parentFinderBytes(g *graph.CSR, keyed, onOutArcs bool) int64 {
	n, m := int64(g.N), int64(len(g.Targets))
	switch {
	case onOutArcs && keyed:
		return 8 * m
	case onOutArcs:
		return 0
	case keyed:
		return 8*(n+1) + 8*m + 4*m + 16*m
	default:
		return 8*(n+1) + 8*m
	}
}

// treeMemoryFact is the TreeMemoryFacts of plan.
func treeMemoryFact(plan treeMemory, budget, stateBytes, blockBytes int64) TreeMemoryFacts {
	return TreeMemoryFacts{BudgetBytes: budget, States: plan.states, StateBytes: stateBytes, Blocks: plan.blocks, BlockBytes: blockBytes}
}
