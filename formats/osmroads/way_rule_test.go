package osmroads

import (
	"strings"
	"sync"
	"testing"

	"github.com/paulmach/osm"
)

// tagsOf builds tags from "key=value" strings.
func tagsOf(t testing.TB, kv ...string) osm.Tags {
	t.Helper()
	tags := make(osm.Tags, 0, len(kv))
	for _, s := range kv {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			t.Fatalf("tag %q: want key=value", s)
		}
		tags = append(tags, osm.Tag{Key: k, Value: v})
	}
	return tags
}

// wayCase is one way's tags and the rule a profile should make of it.
type wayCase struct {
	name     string
	tags     []string
	fwd, bwd float64
}

func checkWays(t *testing.T, p *Profile, cases []wayCase) {
	t.Helper()
	for _, c := range cases {
		got := p.Way(tagsOf(t, c.tags...))
		want := WayRule{ForwardKMH: c.fwd, BackwardKMH: c.bwd}
		if d := got.ForwardKMH - want.ForwardKMH; d > 1e-9 || d < -1e-9 || got.BackwardKMH-want.BackwardKMH > 1e-9 || got.BackwardKMH-want.BackwardKMH < -1e-9 {
			t.Errorf("%s: %s.Way(%v) = %+v; want %+v", c.name, p.Name(), c.tags, got, want)
		}
		if got.Routable() != (c.fwd > 0 || c.bwd > 0) {
			t.Errorf("%s: Routable() = %v for %+v", c.name, got.Routable(), got)
		}
	}
}

func TestCarWayClasses(t *testing.T) {
	checkWays(t, mustBuiltin(t, "car"), []wayCase{
		{"residential", []string{"highway=residential"}, 25, 25},
		{"primary", []string{"highway=primary", "name=Main Street"}, 65, 65},
		{"trunk", []string{"highway=trunk"}, 85, 85},
		{"service", []string{"highway=service", "service=driveway"}, 15, 15},
		{"track, low speed", []string{"highway=track"}, 8, 8},
		{"living street", []string{"highway=living_street"}, 10, 10},
		{"footway", []string{"highway=footway"}, 0, 0},
		{"cycleway", []string{"highway=cycleway"}, 0, 0},
		{"steps", []string{"highway=steps"}, 0, 0},
		{"construction", []string{"highway=construction", "construction=primary"}, 0, 0},
		{"proposed", []string{"highway=proposed", "proposed=motorway"}, 0, 0},
		{"construction=* on a built road is not excluded", []string{"highway=residential", "construction=minor"}, 25, 25},
		{"area", []string{"highway=service", "area=yes"}, 0, 0},
		{"area=no", []string{"highway=service", "area=no"}, 15, 15},
		{"no highway", []string{"building=yes"}, 0, 0},
		{"no tags", nil, 0, 0},
		{"unknown class", []string{"highway=bus_guideway"}, 0, 0},
	})
}

func TestCarOneway(t *testing.T) {
	checkWays(t, mustBuiltin(t, "car"), []wayCase{
		{"oneway=yes", []string{"highway=residential", "oneway=yes"}, 25, 0},
		{"oneway=true", []string{"highway=residential", "oneway=true"}, 25, 0},
		{"oneway=1", []string{"highway=residential", "oneway=1"}, 25, 0},
		{"oneway=-1", []string{"highway=residential", "oneway=-1"}, 0, 25},
		{"oneway=reverse", []string{"highway=residential", "oneway=reverse"}, 0, 25},
		{"oneway=no", []string{"highway=residential", "oneway=no"}, 25, 25},
		{"oneway=false", []string{"highway=residential", "oneway=false"}, 25, 25},
		{"oneway=0", []string{"highway=residential", "oneway=0"}, 25, 25},
		{"oneway=alternating", []string{"highway=residential", "oneway=alternating"}, 25, 25},
		{"oneway=reversible", []string{"highway=residential", "oneway=reversible"}, 0, 0},
		{"unknown oneway value is ignored", []string{"highway=residential", "oneway=unknown"}, 25, 25},
		{"motorway implied", []string{"highway=motorway"}, 90, 0},
		{"motorway_link implied", []string{"highway=motorway_link"}, 45, 0},
		{"motorway oneway=no", []string{"highway=motorway", "oneway=no"}, 90, 90},
		{"motorway oneway=-1", []string{"highway=motorway", "oneway=-1"}, 0, 90},
		{"trunk not implied", []string{"highway=trunk"}, 85, 85},
		{"roundabout", []string{"highway=primary", "junction=roundabout"}, 65, 0},
		{"circular", []string{"highway=tertiary", "junction=circular"}, 40, 0},
		{"roundabout oneway=no", []string{"highway=primary", "junction=roundabout", "oneway=no"}, 65, 65},
		{"roundabout oneway=-1", []string{"highway=primary", "junction=roundabout", "oneway=-1"}, 0, 65},
		{"other junction", []string{"highway=primary", "junction=yes"}, 65, 65},
		{"oneway:foot does not bind cars", []string{"highway=residential", "oneway:foot=yes"}, 25, 25},
	})
}

func TestCarAccess(t *testing.T) {
	checkWays(t, mustBuiltin(t, "car"), []wayCase{
		{"access=no", []string{"highway=residential", "access=no"}, 0, 0},
		{"access=private", []string{"highway=service", "access=private"}, 0, 0},
		{"access=destination", []string{"highway=residential", "access=destination"}, 25, 25},
		{"access=customers", []string{"highway=service", "access=customers"}, 15, 15},
		{"access=delivery", []string{"highway=service", "access=delivery"}, 0, 0},
		{"access=agricultural", []string{"highway=track", "access=agricultural"}, 0, 0},
		{"access=no, motor_vehicle=yes", []string{"highway=residential", "access=no", "motor_vehicle=yes"}, 25, 25},
		{"motor_vehicle=yes, access=no (order of tags does not matter)", []string{"highway=residential", "motor_vehicle=yes", "access=no"}, 25, 25},
		{"access=yes, motor_vehicle=no", []string{"highway=residential", "access=yes", "motor_vehicle=no"}, 0, 0},
		{"vehicle=no, motorcar=yes", []string{"highway=residential", "vehicle=no", "motorcar=yes"}, 25, 25},
		{"motorcar=no, motor_vehicle=yes", []string{"highway=residential", "motorcar=no", "motor_vehicle=yes"}, 0, 0},
		{"unknown motor_vehicle value defers to access", []string{"highway=residential", "motor_vehicle=unknown", "access=no"}, 0, 0},
		{"unknown value alone", []string{"highway=residential", "access=unknown"}, 25, 25},
		{"foot=no does not bind cars", []string{"highway=residential", "foot=no"}, 25, 25},
		{"motor_vehicle:backward=no", []string{"highway=residential", "motor_vehicle:backward=no"}, 25, 0},
		{"vehicle:forward=no", []string{"highway=residential", "vehicle:forward=no"}, 0, 25},
		{"access:forward=no, motor_vehicle=yes", []string{"highway=residential", "access:forward=no", "motor_vehicle=yes"}, 25, 25},
		{"oneway and access", []string{"highway=residential", "oneway=yes", "motor_vehicle:forward=no"}, 0, 0},
	})
}

func TestCarMaxspeed(t *testing.T) {
	checkWays(t, mustBuiltin(t, "car"), []wayCase{
		{"km/h", []string{"highway=residential", "maxspeed=30"}, 30, 30},
		{"mph", []string{"highway=primary", "maxspeed=45 mph"}, 72.42048, 72.42048},
		{"none", []string{"highway=motorway", "maxspeed=none"}, 130, 0},
		{"walk", []string{"highway=living_street", "maxspeed=walk"}, 5, 5},
		{"signals keeps the class", []string{"highway=motorway", "maxspeed=signals"}, 90, 0},
		{"zone keeps the class", []string{"highway=residential", "maxspeed=DE:urban"}, 25, 25},
		{"list", []string{"highway=secondary", "maxspeed=70;50"}, 50, 50},
		{"forward and backward", []string{"highway=secondary", "maxspeed:forward=70", "maxspeed:backward=50"}, 70, 50},
		{"forward over maxspeed", []string{"highway=secondary", "maxspeed=60", "maxspeed:forward=80"}, 80, 60},
		{"backward unparseable", []string{"highway=secondary", "maxspeed=60", "maxspeed:backward=variable"}, 60, 60},
		{"oneway backward uses backward speed", []string{"highway=secondary", "oneway=-1", "maxspeed:forward=70", "maxspeed:backward=50"}, 0, 50},
	})
}

func TestFootWays(t *testing.T) {
	checkWays(t, mustBuiltin(t, "foot"), []wayCase{
		{"footway", []string{"highway=footway"}, 5, 5},
		{"steps", []string{"highway=steps"}, 3, 3},
		{"residential", []string{"highway=residential"}, 5, 5},
		{"primary", []string{"highway=primary"}, 5, 5},
		{"motorway", []string{"highway=motorway"}, 0, 0},
		{"motorway_link", []string{"highway=motorway_link"}, 0, 0},
		{"trunk", []string{"highway=trunk"}, 5, 5},
		{"trunk motorroad=yes", []string{"highway=trunk", "motorroad=yes"}, 0, 0},
		{"trunk motorroad=no", []string{"highway=trunk", "motorroad=no"}, 5, 5},
		{"pedestrian area", []string{"highway=pedestrian", "area=yes"}, 0, 0},
		{"construction", []string{"highway=construction"}, 0, 0},
		{"oneway binds vehicles only", []string{"highway=residential", "oneway=yes"}, 5, 5},
		{"oneway:foot=yes", []string{"highway=footway", "oneway:foot=yes"}, 5, 0},
		{"oneway:foot=-1", []string{"highway=footway", "oneway:foot=-1"}, 0, 5},
		{"roundabout is two-way on foot", []string{"highway=residential", "junction=roundabout"}, 5, 5},
		{"maxspeed ignored", []string{"highway=residential", "maxspeed=30 mph"}, 5, 5},
		{"maxspeed=walk ignored", []string{"highway=residential", "maxspeed=walk"}, 5, 5},
		{"foot=no", []string{"highway=primary", "foot=no"}, 0, 0},
		{"access=no, foot=yes", []string{"highway=service", "access=no", "foot=yes"}, 5, 5},
		{"access=agricultural lets walkers by", []string{"highway=track", "access=agricultural"}, 5, 5},
		{"access=private", []string{"highway=service", "access=private"}, 0, 0},
		{"motor_vehicle=no does not bind walkers", []string{"highway=residential", "motor_vehicle=no"}, 5, 5},
		{"foot=use_sidepath", []string{"highway=secondary", "foot=use_sidepath"}, 0, 0},
	})
}

// TestWayConcurrent runs one profile from many goroutines, as the parallel
// decoders do; run with -race it checks that Way shares nothing mutable.
func TestWayConcurrent(t *testing.T) {
	car := mustBuiltin(t, "car")
	tags := tagsOf(t, "highway=secondary", "oneway=-1", "maxspeed=40 mph", "access=no", "motor_vehicle=yes")
	want := car.Way(tags)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 1000 {
				if got := car.Way(tags); got != want {
					t.Errorf("concurrent Way = %+v; want %+v", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestWayDoesNotAllocate(t *testing.T) {
	car := mustBuiltin(t, "car")
	for _, tags := range []osm.Tags{residentialTags(t), tagsOf(t, "building=yes"), tagsOf(t, "highway=primary", "maxspeed=50 mph;30", "maxspeed:backward=40", "junction=roundabout")} {
		if allocs := testing.AllocsPerRun(100, func() { car.Way(tags) }); allocs != 0 {
			t.Errorf("Way(%v) allocates %v times per call; want 0", tags, allocs)
		}
	}
}

// residentialTags are the tags of a typical residential street as the US
// TIGER import left them (as on the Delaware extract).
func residentialTags(t testing.TB) osm.Tags {
	return tagsOf(t,
		"highway=residential",
		"name=Orchard Avenue",
		"tiger:cfcc=A41",
		"tiger:county=New Castle, DE",
		"tiger:name_base=Orchard",
		"tiger:name_type=Ave",
		"tiger:reviewed=no",
		"tiger:zip_left=19711",
		"tiger:zip_right=19711",
	)
}

func BenchmarkWay(b *testing.B) {
	car, err := Builtin("car")
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		tags osm.Tags
	}{
		{"residential", residentialTags(b)},
		{"building", tagsOf(b, "building=yes", "addr:housenumber=12", "addr:street=Orchard Avenue")},
		{"primary_maxspeed_oneway", tagsOf(b, "highway=primary", "name=Kirkwood Highway", "ref=DE 2", "maxspeed=45 mph", "oneway=yes", "lanes=2", "surface=asphalt")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				car.Way(bc.tags)
			}
		})
	}
}
