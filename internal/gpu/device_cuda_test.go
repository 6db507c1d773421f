//go:build cuda

package gpu

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pathflow/pathflow/kernels"
)

func TestDeviceDescribes(t *testing.T) {
	d := defaultBackend().GPU()
	major, _ := d.ComputeCapability()
	if d.Name() == "" || major < 7 || d.Multiprocessors() < 1 || d.TotalMemory() < 1<<30 {
		t.Fatalf("device %q cc %d sms %d memory %d", d.Name(), major, d.Multiprocessors(), d.TotalMemory())
	}
	if s := d.String(); !strings.HasPrefix(s, d.Name()+" (sm_") || !strings.HasSuffix(s, " GiB)") {
		t.Fatalf("String() = %q", s)
	}
	free, total, err := d.FreeMemory()
	if err != nil || free <= 0 || free > total || total != d.TotalMemory() {
		t.Fatalf("FreeMemory = %d, %d, %v (total %d)", free, total, err, d.TotalMemory())
	}
	t.Logf("%s: %d SMs, %d of %d MiB free", d, d.Multiprocessors(), free>>20, total>>20)
}

func TestEveryKernelLoads(t *testing.T) {
	err := defaultBackend().GPU().Do(func(c *Ctx) error {
		for _, k := range kernels.All() {
			if _, err := k.Function(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestKernelOutsideDoFails(t *testing.T) {
	if _, err := kernels.All()[0].Function(); err == nil {
		t.Fatal("loading a kernel on a goroutine without a context succeeded")
	}
}

func TestAllocBeyondFreeMemory(t *testing.T) {
	d := defaultBackend().GPU()
	err := d.Do(func(c *Ctx) error {
		_, err := c.Alloc(2*d.TotalMemory(), "an impossible matrix")
		return err
	})
	var oom *OutOfMemoryError
	if !errors.As(err, &oom) || oom.Need != 2*d.TotalMemory() || oom.Free <= 0 || oom.Total != d.TotalMemory() {
		t.Fatalf("error %v, want an OutOfMemoryError with the sizes", err)
	}
	if !strings.Contains(err.Error(), "an impossible matrix needs") {
		t.Fatalf("error %q does not name the allocation", err)
	}
}

func TestCopiesRoundTrip(t *testing.T) {
	want := []int32{3, -1, 1 << 30, 7, 0}
	got := make([]int32, len(want))
	err := defaultBackend().GPU().Do(func(c *Ctx) error {
		b, err := c.Alloc(int64(len(want))*4, "round trip")
		if err != nil {
			return err
		}
		defer c.Free(&b)
		if err := c.FillInt32(b, -7); err != nil {
			return err
		}
		if err := c.CopyInt32FromDevice(got, b); err != nil {
			return err
		}
		for i, v := range got {
			if v != -7 {
				t.Errorf("after FillInt32(-7): got[%d] = %d", i, v)
			}
		}
		if err := c.CopyInt32ToDevice(b, want); err != nil {
			return err
		}
		return c.CopyInt32FromDevice(got, b)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("round trip: got %v, want %v", got, want)
		}
	}
}

func TestDoFromManyGoroutinesAndPanics(t *testing.T) {
	d := defaultBackend().GPU()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- d.Do(func(c *Ctx) error {
				_, _, err := c.MemInfo()
				return err
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	err := d.Do(func(c *Ctx) error { panic("boom") })
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("panic came back as %v", err)
	}
	if err := d.Do(func(c *Ctx) error { return nil }); err != nil {
		t.Fatalf("device unusable after a panic: %v", err)
	}
}

func TestClosedDevice(t *testing.T) {
	d, err := Open(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := d.Do(func(*Ctx) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Fatalf("Do after Close: %v", err)
	}
}

func TestAddMinCeiling(t *testing.T) {
	rate, err := defaultBackend().GPU().AddMinCeiling(20*time.Millisecond, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Any CUDA GPU since 2017 does well over 1e11 int32 add-mins a second.
	if rate < 1e11 || rate > 1e15 {
		t.Fatalf("add-min ceiling %.3g/s is implausible", rate)
	}
	t.Logf("add-min ceiling %.3g/s", rate)
}
