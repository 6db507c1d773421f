package device

import (
	"reflect"
	"testing"
)

func TestConfineTo(t *testing.T) {
	for _, tc := range []struct {
		name     string
		ordinals []int
		current  string
		set      bool
		ok       bool
		value    string
		order    []int
	}{
		{name: "one device, nothing hidden yet", ordinals: []int{0}, ok: true, value: "0", order: []int{0}},
		{name: "listed order kept, repeats once", ordinals: []int{3, 1, 3}, ok: true, value: "3,1", order: []int{3, 1}},
		{name: "picked from a list already set", ordinals: []int{1}, current: "GPU-aaa, GPU-bbb", set: true, ok: true, value: "GPU-bbb", order: []int{1}},
		{name: "indices of a list already set", ordinals: []int{2, 0}, current: "4,5,6", set: true, ok: true, value: "6,4", order: []int{2, 0}},
		{name: "beyond a list already set", ordinals: []int{3}, current: "4,5,6", set: true},
		{name: "a list already empty", ordinals: []int{0}, current: "", set: true},
		{name: "no ordinals", ordinals: nil},
		{name: "a negative ordinal", ordinals: []int{-1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := confineTo(tc.ordinals, tc.current, tc.set)
			if ok != tc.ok {
				t.Fatalf("ok %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if c.value != tc.value || !reflect.DeepEqual(c.ordinals, tc.order) {
				t.Errorf("value %q ordinals %v, want %q %v", c.value, c.ordinals, tc.value, tc.order)
			}
			for i, o := range c.ordinals {
				if c.driver[o] != i {
					t.Errorf("ordinal %d maps to driver ordinal %d, want %d", o, c.driver[o], i)
				}
			}
		})
	}
}
