package osmroads

import (
	"math"
	"testing"
)

func TestParseMaxspeed(t *testing.T) {
	car := mustBuiltin(t, "car") // none: 130, walk: 5
	cases := []struct {
		in   string
		kmh  float64
		good bool
	}{
		{"50", 50, true},
		{"7.5", 7.5, true},
		{"50 km/h", 50, true},
		{"50km/h", 50, true},
		{"50 kmh", 50, true},
		{"50kph", 50, true},
		{"50 KM/H", 50, true},
		{"30 mph", 48.28032, true},
		{"30mph", 48.28032, true},
		{"65 MPH", 104.60736, true},
		{"10 knots", 18.52, true},
		{"10knots", 18.52, true},
		{"  40  ", 40, true},
		{"none", 130, true},
		{"None", 130, true},
		{"unlimited", 130, true},
		{"walk", 5, true},
		{"50;30", 30, true},
		{"30 mph;50", 48.28032, true},
		{"signals;60", 60, true},
		{"60; signals", 60, true},
		{"none;100", 100, true},
		{"signals", 0, false},
		{"variable", 0, false},
		{"DE:urban", 0, false},
		{"RU:rural", 0, false},
		{"DE:zone30", 0, false},
		{"0", 0, false},
		{"-30", 0, false},
		{"50 furlongs", 0, false},
		{"fast", 0, false},
		{"", 0, false},
		{";", 0, false},
		{".", 0, false},
		{"1.2.3", 0, false},
	}
	for _, c := range cases {
		kmh, ok := ParseMaxspeed(c.in, car)
		if ok != c.good || math.Abs(kmh-c.kmh) > 1e-9 {
			t.Errorf("ParseMaxspeed(%q) = %v, %v; want %v, %v", c.in, kmh, ok, c.kmh, c.good)
		}
	}
}

func TestParseMaxspeedNilProfile(t *testing.T) {
	for _, in := range []string{"none", "walk"} {
		if kmh, ok := ParseMaxspeed(in, nil); ok {
			t.Errorf("ParseMaxspeed(%q, nil) = %v, true; want no speed without a profile", in, kmh)
		}
	}
	if kmh, ok := ParseMaxspeed("20 mph", nil); !ok || math.Abs(kmh-32.18688) > 1e-9 {
		t.Errorf("ParseMaxspeed(20 mph, nil) = %v, %v; want 32.18688, true", kmh, ok)
	}
}

func TestParseMaxspeedDoesNotAllocate(t *testing.T) {
	car := mustBuiltin(t, "car")
	allocs := testing.AllocsPerRun(100, func() {
		ParseMaxspeed("30 mph;50 km/h; none", car)
	})
	if allocs != 0 {
		t.Errorf("ParseMaxspeed allocates %v times per call; want 0", allocs)
	}
}
