package osmroads

import "testing"

func TestNode(t *testing.T) {
	car, foot := mustBuiltin(t, "car"), mustBuiltin(t, "foot")
	cases := []struct {
		name      string
		tags      []string
		car, foot NodeRule
	}{
		{"no tags", nil, NodeRule{}, NodeRule{}},
		{"traffic signals are not barriers", []string{"highway=traffic_signals"}, NodeRule{}, NodeRule{}},
		{"barrier=no", []string{"barrier=no"}, NodeRule{}, NodeRule{}},
		{"bollard", []string{"barrier=bollard"}, NodeRule{true, true}, NodeRule{true, false}},
		{"jersey barrier", []string{"barrier=jersey_barrier"}, NodeRule{true, true}, NodeRule{true, false}},
		{"gate", []string{"barrier=gate"}, NodeRule{true, false}, NodeRule{true, false}},
		{"lift gate", []string{"barrier=lift_gate"}, NodeRule{true, false}, NodeRule{true, false}},
		{"fence", []string{"barrier=fence"}, NodeRule{true, true}, NodeRule{true, true}},
		{"stile", []string{"barrier=stile"}, NodeRule{true, true}, NodeRule{true, false}},
		{"unknown barrier passes", []string{"barrier=something"}, NodeRule{true, false}, NodeRule{true, false}},
		{"bollard, motor_vehicle=yes", []string{"barrier=bollard", "motor_vehicle=yes"}, NodeRule{true, false}, NodeRule{true, false}},
		{"bollard, access=no, motorcar=yes", []string{"barrier=bollard", "access=no", "motorcar=yes"}, NodeRule{true, false}, NodeRule{true, true}},
		{"bollard, access=yes, motor_vehicle=no", []string{"barrier=bollard", "access=yes", "motor_vehicle=no"}, NodeRule{true, true}, NodeRule{true, false}},
		{"gate, access=private", []string{"barrier=gate", "access=private"}, NodeRule{true, true}, NodeRule{true, true}},
		{"gate, access=private, foot=yes", []string{"barrier=gate", "access=private", "foot=yes"}, NodeRule{true, true}, NodeRule{true, false}},
		{"gate, access=destination", []string{"barrier=gate", "access=destination"}, NodeRule{true, false}, NodeRule{true, false}},
		{"fence, foot=yes", []string{"barrier=fence", "foot=yes"}, NodeRule{true, true}, NodeRule{true, false}},
		{"bollard, unknown access value", []string{"barrier=bollard", "motor_vehicle=unknown"}, NodeRule{true, true}, NodeRule{true, false}},
		{"access without a barrier is not a barrier", []string{"access=no"}, NodeRule{}, NodeRule{}},
	}
	for _, c := range cases {
		tags := tagsOf(t, c.tags...)
		if got := car.Node(tags); got != c.car {
			t.Errorf("%s: car.Node(%v) = %+v; want %+v", c.name, c.tags, got, c.car)
		}
		if got := foot.Node(tags); got != c.foot {
			t.Errorf("%s: foot.Node(%v) = %+v; want %+v", c.name, c.tags, got, c.foot)
		}
	}
}

func TestNodeDoesNotAllocate(t *testing.T) {
	car := mustBuiltin(t, "car")
	tags := tagsOf(t, "barrier=gate", "access=private", "motor_vehicle=yes")
	if allocs := testing.AllocsPerRun(100, func() { car.Node(tags) }); allocs != 0 {
		t.Errorf("Node allocates %v times per call; want 0", allocs)
	}
}
