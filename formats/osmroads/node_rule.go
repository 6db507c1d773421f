package osmroads

import "github.com/paulmach/osm"

// NodeRule is what a profile makes of one node. Barrier: the node has a
// barrier=* tag, so it becomes a routing node (a vertex of the graph) on
// whatever way passes through it, which keeps a blocking barrier from being
// merged into an arc. Blocks: the profile cannot pass through it; arcs may
// still end there. Blocks implies Barrier.
type NodeRule struct {
	Barrier, Blocks bool
}

// Node applies the profile to a node's tags. A node whose barrier value is
// in the profile's blocking_barriers blocks; the node's own access tags,
// read with the profile's access keys and values (plain keys only: a
// barrier has no direction), override that either way, so a bollard with
// motor_vehicle=yes lets cars through and a gate with access=private stops
// them. barrier=no is no barrier. Safe for concurrent use; it does not
// allocate.
func (p *Profile) Node(tags osm.Tags) NodeRule {
	barrier := tags.Find("barrier")
	if barrier == "" || barrier == "no" {
		return NodeRule{}
	}
	for i := range p.accessKeys {
		if value := tags.Find(p.accessKeys[i].name); value != "" {
			if d := p.verdicts[value]; d != undecided {
				return NodeRule{Barrier: true, Blocks: d == denied}
			}
		}
	}
	return NodeRule{Barrier: true, Blocks: p.blocking[barrier]}
}
