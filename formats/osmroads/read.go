package osmroads

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/paulmach/osm"

	"github.com/pathflow/pathflow/internal/parallel"
)

// Pass names one of the two passes over an extract.
type Pass int

// The passes, in the order Read makes them.
const (
	// PassWays reads the ways, keeping the routable ones.
	PassWays Pass = 1
	// PassNodes reads the nodes, keeping the coordinates of those the
	// routable ways use.
	PassNodes Pass = 2
)

func (p Pass) String() string {
	if p == PassWays {
		return "ways"
	}
	return "nodes"
}

// Opener opens the extract for one pass. Read closes what it returns when
// the pass is over and fails with Close's error: a caller that hashes the
// bytes as they are read can refuse an extract that changed between the
// passes there.
type Opener func(p Pass) (io.ReadCloser, error)

// Read reads an extract in two passes through open and builds its road
// network (build.go). name is used in error messages. Memory is that of
// the routable part: about 40 bytes per node of a routable way and 24 per
// way, then the network itself (docs/openstreetmap.md).
func Read(ctx context.Context, name string, open Opener, opts Options) (*Network, error) {
	if opts.Profile == nil {
		p, err := Builtin("car")
		if err != nil {
			return nil, err
		}
		opts.Profile = p
	}
	switch opts.Weight {
	case "":
		opts.Weight = Time
	case Time, Length:
	default:
		return nil, fmt.Errorf("osmroads: unknown weight %q (time or length)", opts.Weight)
	}
	workers := max(opts.Workers, 1)

	ways := &wayTable{start: []int64{0}}
	err := readPass(open, PassWays, name, func(r io.Reader) error {
		return scanWays(ctx, r, workers, func(w *osm.Way) bool {
			return opts.Profile.Way(w.Tags).Routable()
		}, func(w *osm.Way) {
			ways.add(w, opts.Profile.Way(w.Tags))
		})
	})
	if err != nil {
		return nil, err
	}
	nodes := newNodeTable(ways.refs)
	ways.indexNodes(nodes, workers)
	err = readPass(open, PassNodes, name, func(r io.Reader) error {
		return scanNodes(ctx, r, workers, func(n *osm.Node) {
			nodes.record(n, opts.Profile)
		})
	})
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return build(ways, nodes, opts), nil
}

// readPass opens the extract for pass p, runs scan over it and closes it.
func readPass(open Opener, p Pass, name string, scan func(io.Reader) error) error {
	r, err := open(p)
	if err != nil {
		return err
	}
	err = scan(r)
	if cerr := r.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: reading the %s: %w", name, p, err)
	}
	return nil
}

// wayTable holds the routable ways of the first pass: their ids, speeds
// and node references, flat.
type wayTable struct {
	id       []int64
	fwd, bwd []float32 // km/h in each direction, 0 where not allowed
	// start[i]:start[i+1] are way i's entries of refs (node ids) until
	// indexNodes turns them into node indices in nodeAt.
	start  []int64
	refs   []int64
	nodeAt []int32
}

// add appends a routable way with its rule, skipping a node repeated
// right after itself (a zero-length step some editors leave).
func (t *wayTable) add(w *osm.Way, r WayRule) {
	if len(w.Nodes) < 2 {
		return
	}
	t.id = append(t.id, int64(w.ID))
	t.fwd, t.bwd = append(t.fwd, float32(r.ForwardKMH)), append(t.bwd, float32(r.BackwardKMH))
	for i, wn := range w.Nodes {
		if i > 0 && wn.ID == w.Nodes[i-1].ID {
			continue
		}
		t.refs = append(t.refs, int64(wn.ID))
	}
	t.start = append(t.start, int64(len(t.refs)))
}

func (t *wayTable) len() int { return len(t.id) }

// nodesOf returns way i's node indices.
func (t *wayTable) nodesOf(i int) []int32 { return t.nodeAt[t.start[i]:t.start[i+1]] }

// indexNodes replaces every node id of refs by its index in nodes, on
// workers goroutines, then drops refs.
func (t *wayTable) indexNodes(nodes *nodeTable, workers int) {
	t.nodeAt = make([]int32, len(t.refs))
	parallel.Chunks(len(t.refs), workers, 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			t.nodeAt[i], _ = nodes.index(t.refs[i])
		}
	})
	t.refs = nil
}

// Node flags.
const (
	nodePresent  uint8 = 1 << iota // the extract holds the node
	nodeBarrier                    // a barrier: a vertex of its own
	nodeBlocking                   // a barrier the profile may not pass
	nodeRouting                    // a vertex of the network
)

// nodeTable holds the nodes of the routable ways: their ids, sorted, and
// what the second pass learnt of each.
type nodeTable struct {
	id    []int64
	x, y  []int32
	flags []uint8
	// uses counts, up to 2, a node's references by ways, a way's two
	// ends counting twice: a node used twice is where roads meet.
	uses []uint8
}

// newNodeTable makes the table of the distinct ids among refs.
func newNodeTable(refs []int64) *nodeTable {
	sorted := slices.Clone(refs)
	slices.Sort(sorted)
	// A copy of exactly the distinct ids, so that the sorted references
	// (one per way node, often twice as many) can be collected.
	ids := slices.Clone(slices.Compact(sorted))
	n := len(ids)
	return &nodeTable{id: ids, x: make([]int32, n), y: make([]int32, n), flags: make([]uint8, n), uses: make([]uint8, n)}
}

// index returns the index of node id, by binary search.
func (t *nodeTable) index(id int64) (int32, bool) {
	i, ok := slices.BinarySearch(t.id, id)
	return int32(i), ok
}

// record keeps the coordinates and barrier flags of n when a routable way
// uses it. Safe for concurrent use: each node id has one entry, written
// by the one decoder that meets the node.
func (t *nodeTable) record(n *osm.Node, p *Profile) {
	i, ok := t.index(int64(n.ID))
	if !ok {
		return
	}
	t.x[i], t.y[i] = fixed(n.Lon), fixed(n.Lat)
	f := nodePresent
	if len(n.Tags) > 0 {
		if r := p.Node(n.Tags); r.Barrier {
			f |= nodeBarrier
			if r.Blocks {
				f |= nodeBlocking
			}
		}
	}
	t.flags[i] = f
}
