package osmroads

import "github.com/paulmach/osm"

// WayRule is what a profile makes of one way: the speed in km/h at which it
// is travelled in each direction, forward being the order of the way's
// nodes. A speed of 0 means that direction is not allowed.
type WayRule struct {
	ForwardKMH, BackwardKMH float64
}

// Routable tells whether the way can be travelled in at least one
// direction.
func (r WayRule) Routable() bool { return r.ForwardKMH > 0 || r.BackwardKMH > 0 }

// Directions as indexes of accessKey.directed.
const (
	forward  = 0
	backward = 1
)

// Way applies the profile to a way's tags (docs/openstreetmap.md, "Routing
// profiles"). It runs for every way of a file inside parallel decoders, so
// it is safe for concurrent use and does not allocate: a way that is not a
// highway of the profile's classes costs one scan of its tags; any other
// costs one more scan and a map lookup per tag whose key's first byte
// and length match a key the profile reads.
func (p *Profile) Way(tags osm.Tags) WayRule {
	class := tags.Find("highway")
	if class == "" {
		return WayRule{}
	}
	kmh, ok := p.speeds[class]
	if !ok {
		return WayRule{}
	}
	var v [maxTagKeys]string
	for _, t := range tags {
		if k := t.Key; k != "" && p.keyFilter[k[0]]&(1<<(len(k)%64)) != 0 {
			if s, ok := p.slots[k]; ok {
				v[s] = t.Value
			}
		}
	}
	for _, ex := range p.excluded {
		if value := v[ex.slot]; value != "" && (ex.anyValue || ex.values[value]) {
			return WayRule{}
		}
	}
	fwdOpen, bwdOpen := p.oneway(class, &v)
	fwdOpen = fwdOpen && p.accessAllows(&v, forward)
	bwdOpen = bwdOpen && p.accessAllows(&v, backward)
	if !fwdOpen && !bwdOpen {
		return WayRule{}
	}
	fwd, bwd := kmh, kmh
	if p.useMaxspeed {
		if s, ok := ParseMaxspeed(v[p.maxspeedSlot], p); ok {
			fwd, bwd = s, s
		}
		if s, ok := ParseMaxspeed(v[p.maxspeedForwardSlot], p); ok {
			fwd = s
		}
		if s, ok := ParseMaxspeed(v[p.maxspeedBackwardSlot], p); ok {
			bwd = s
		}
	}
	if p.maxKMH > 0 {
		fwd, bwd = min(fwd, p.maxKMH), min(bwd, p.maxKMH)
	}
	var r WayRule
	if fwdOpen {
		r.ForwardKMH = fwd
	}
	if bwdOpen {
		r.BackwardKMH = bwd
	}
	return r
}

// oneway returns the directions the way's oneway tags leave open. The
// first of the profile's oneway keys with a known value decides; with none,
// the class or a roundabout may imply a oneway.
func (p *Profile) oneway(class string, v *[maxTagKeys]string) (fwdOpen, bwdOpen bool) {
	for _, s := range p.onewaySlots {
		switch v[s] {
		case "yes", "true", "1":
			return true, false
		case "-1", "reverse":
			return false, true
		case "no", "false", "0":
			return true, true
		case "alternating":
			// One lane whose direction takes turns (a narrow bridge with
			// signals): both directions get through.
			return true, true
		case "reversible":
			// The open direction depends on the time of day, which is not
			// modelled: neither is assumed open.
			return false, false
		}
	}
	if p.impliedOneway[class] {
		return true, false
	}
	if p.roundaboutsOneway {
		if j := v[p.junctionSlot]; j == "roundabout" || j == "circular" {
			return true, false
		}
	}
	return true, true
}

// accessAllows tells whether the way's access tags let the profile travel
// in direction dir. Keys are tried most specific first, each as KEY:forward
// or KEY:backward before KEY; the first with a listed value decides, and a
// way none decides is open.
func (p *Profile) accessAllows(v *[maxTagKeys]string, dir int) bool {
	for i := range p.accessKeys {
		k := &p.accessKeys[i]
		if value := v[k.directed[dir]]; value != "" {
			if d := p.verdicts[value]; d != undecided {
				return d == allowed
			}
		}
		if value := v[k.plain]; value != "" {
			if d := p.verdicts[value]; d != undecided {
				return d == allowed
			}
		}
	}
	return true
}
