//go:build cuda

package device

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestUploadShareCopiesBetweenContexts uploads the same arrays from three
// contexts on one GPU at once through an UploadShare (as the devices of a
// spread run do): every context must hold the arrays, into buffers
// poisoned first, and all but the first upload of each array must be a
// copy between contexts. An array whose first buffer was freed is then
// sent from host memory again, and a context without the share uploads
// on its own.
func TestUploadShareCopiesBetweenContexts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	arrays := make([][]int32, 3)
	for i, bytes := range []int64{stagedUploadMinBytes, uploadChunkBytes + 12, 3*uploadChunkBytes + 4} {
		arrays[i] = make([]int32, bytes/4)
		for j := range arrays[i] {
			arrays[i][j] = rng.Int32()
		}
	}
	devs := []*Device{testDevice}
	for range 2 {
		d, err := Open(testDevice.Ordinal())
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		devs = append(devs, d)
	}
	share := NewUploadShare()
	held := make([][]Buffer, len(devs))
	upload := func(d *Device) ([]Buffer, error) {
		var bufs []Buffer
		err := d.Do(func(c *Ctx) error {
			for _, a := range arrays {
				b, err := c.Alloc(int64(len(a))*4, "shared array")
				if err != nil {
					return err
				}
				bufs = append(bufs, b)
				if err := c.FillInt32(b, poison); err != nil {
					return err
				}
				if err := c.ShareInt32ToDevice(b, a); err != nil {
					return err
				}
			}
			return nil
		})
		return bufs, err
	}
	check := func(d *Device, bufs []Buffer) error {
		return d.Do(func(c *Ctx) error {
			for i, a := range arrays {
				got := make([]int32, len(a))
				if err := c.CopyInt32FromDevice(got, bufs[i]); err != nil {
					return err
				}
				for j := range got {
					if got[j] != a[j] {
						return fmt.Errorf("array %d, int32 %d: %#x, want %#x", i, j, got[j], a[j])
					}
				}
			}
			return nil
		})
	}
	for _, d := range devs {
		if err := d.ShareUploads(share); err != nil {
			t.Fatal(err)
		}
	}
	// testDevice serves the package's other tests after this one.
	defer testDevice.ShareUploads(nil)
	var wg sync.WaitGroup
	errs := make([]error, len(devs))
	for i, d := range devs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			held[i], errs[i] = upload(d)
		}()
	}
	wg.Wait()
	for i, d := range devs {
		if errs[i] != nil {
			t.Fatalf("context %d: %v", i, errs[i])
		}
		if err := check(d, held[i]); err != nil {
			t.Fatalf("context %d: %v", i, err)
		}
	}
	if got, want := share.PeerCopies(), len(arrays)*(len(devs)-1); got != want {
		t.Errorf("%d copies between contexts, want %d", got, want)
	}

	// Every context frees its buffers: the share holds nothing, and the
	// next uploads come from host memory (the first) and copies.
	freeHeld(t, devs, held)
	if n := len(share.arrays); n != 0 {
		t.Fatalf("the share holds %d arrays after their buffers were freed", n)
	}
	before := share.PeerCopies()
	for i, d := range devs[:2] {
		bufs, err := upload(d)
		if err == nil {
			err = check(d, bufs)
		}
		if err != nil {
			t.Fatalf("again, context %d: %v", i, err)
		}
		held[i] = bufs
	}
	if got, want := share.PeerCopies()-before, len(arrays); got != want {
		t.Errorf("after the first buffers were freed: %d copies between contexts, want %d", got, want)
	}

	// Without the share, a context uploads from host memory.
	if err := devs[2].ShareUploads(nil); err != nil {
		t.Fatal(err)
	}
	before = share.PeerCopies()
	bufs, err := upload(devs[2])
	if err == nil {
		err = check(devs[2], bufs)
	}
	if err != nil {
		t.Fatal(err)
	}
	if share.PeerCopies() != before {
		t.Error("a context without the share copied from another")
	}
	held[2] = bufs
	freeHeld(t, devs, held)
}

// freeHeld frees each device's buffers of held on that device.
func freeHeld(t *testing.T, devs []*Device, held [][]Buffer) {
	t.Helper()
	for i, d := range devs {
		if err := d.Do(func(c *Ctx) error {
			for j := range held[i] {
				if err := c.Free(&held[i][j]); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}
