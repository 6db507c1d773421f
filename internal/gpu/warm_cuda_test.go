//go:build cuda

package gpu

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/device"
)

// parkedNow lists the parked devices.
func parkedNow() []*device.Device {
	parked.mu.Lock()
	defer parked.mu.Unlock()
	return slices.Clone(parked.devices)
}

// TestNewTakesWarmedDevices: New takes the contexts warm parked for its
// ordinals instead of opening others, and giveBack closes only those no
// backend took, once.
func TestNewTakesWarmedDevices(t *testing.T) {
	if n := len(parkedNow()); n != 0 {
		t.Fatalf("%d devices parked before the test", n)
	}
	giveBack, err := warm([]int{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	warmed := parkedNow()
	if len(warmed) != 2 {
		t.Fatalf("%d devices parked, want 2", len(warmed))
	}
	b, err := New(WithDevices([]int{0}))
	if err != nil {
		t.Fatal(err)
	}
	if got := b.GPU(); !slices.Contains(warmed, got) {
		t.Errorf("the backend opened a context of its own beside the %d parked", len(warmed))
	}
	if left := parkedNow(); len(left) != 1 || left[0] == b.GPU() {
		t.Errorf("parked after New: %d devices, want the one not taken", len(left))
	}
	free, _, err := b.GPU().FreeMemory()
	if err != nil || free <= 0 {
		t.Errorf("the taken context does not answer: free %d, %v", free, err)
	}
	if err := giveBack(); err != nil {
		t.Errorf("giving back the context not taken: %v", err)
	}
	if n := len(parkedNow()); n != 0 {
		t.Errorf("%d devices still parked after giveBack", n)
	}
	if _, _, err := b.GPU().FreeMemory(); err != nil {
		t.Errorf("giveBack closed the context the backend took: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Error(err)
	}
	if err := giveBack(); err != nil {
		t.Errorf("a second giveBack: %v", err)
	}
}

// TestWarmOfAMissingDeviceParksTheOthers: an ordinal that does not exist
// is reported, and the devices that opened are parked all the same.
func TestWarmOfAMissingDeviceParksTheOthers(t *testing.T) {
	giveBack, err := warm([]int{0, 1 << 20})
	if err == nil {
		t.Error("warming a device that does not exist reported no error")
	}
	if n := len(parkedNow()); n != 1 {
		t.Errorf("%d devices parked, want device 0", n)
	}
	if err := giveBack(); err != nil {
		t.Error(err)
	}
	if n := len(parkedNow()); n != 0 {
		t.Errorf("%d devices parked after giveBack", n)
	}
}
