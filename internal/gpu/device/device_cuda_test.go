//go:build cuda

package device

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/kernels"
)

func TestDeviceDescribes(t *testing.T) {
	d := testDevice
	major, _ := d.computeCapability()
	if d.Name() == "" || major < 7 || d.Multiprocessors() < 1 || d.totalMemory() < 1<<30 {
		t.Fatalf("device %q cc %d sms %d memory %d", d.Name(), major, d.Multiprocessors(), d.totalMemory())
	}
	if s := d.String(); !strings.HasPrefix(s, d.Name()+" (sm_") || !strings.HasSuffix(s, " GiB)") {
		t.Fatalf("String() = %q", s)
	}
	free, total, err := d.FreeMemory()
	if err != nil || free <= 0 || free > total || total != d.totalMemory() {
		t.Fatalf("FreeMemory = %d, %d, %v (total %d)", free, total, err, d.totalMemory())
	}
	t.Logf("%s: %d SMs, %d of %d MiB free", d, d.Multiprocessors(), free>>20, total>>20)
}

func TestEveryKernelLoads(t *testing.T) {
	err := testDevice.Do(func(c *Ctx) error {
		for _, k := range kernels.All() {
			fn, err := c.kernels.Function(k)
			if err != nil {
				return err
			}
			if fn == (cu.Function{}) {
				return fmt.Errorf("kernel %s resolved to no function", k.Name())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestKernelsOutsideDoFail(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, err := kernels.Load(); err == nil {
		t.Fatal("loading the kernels on a thread without a context succeeded")
	}
}

func TestAllocBeyondFreeMemory(t *testing.T) {
	d := testDevice
	err := d.Do(func(c *Ctx) error {
		_, err := c.Alloc(2*d.totalMemory(), "an impossible matrix")
		return err
	})
	var oom *OutOfMemoryError
	if !errors.As(err, &oom) || oom.Need != 2*d.totalMemory() || oom.Free <= 0 || oom.Total != d.totalMemory() {
		t.Fatalf("error %v, want an OutOfMemoryError with the sizes", err)
	}
	if !strings.Contains(err.Error(), "an impossible matrix needs") {
		t.Fatalf("error %q does not name the allocation", err)
	}
}

func TestCopiesRoundTrip(t *testing.T) {
	want := []int32{3, -1, 1 << 30, 7, 0}
	got := make([]int32, len(want))
	err := testDevice.Do(func(c *Ctx) (err error) {
		b, err := c.Alloc(int64(len(want))*4, "round trip")
		if err != nil {
			return err
		}
		defer ReleaseInto(&err, func() error { return c.Free(&b) })
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
	d := testDevice
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
	if err := d.Do(func(*Ctx) error { return nil }); !errors.Is(err, errClosed) {
		t.Fatalf("Do after Close: %v", err)
	}
}

func TestAddMinCeiling(t *testing.T) {
	rate, err := testDevice.AddMinCeiling(20*time.Millisecond, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Any CUDA GPU since 2017 does well over 1e11 int32 add-mins a second.
	if rate < 1e11 || rate > 1e15 {
		t.Fatalf("add-min ceiling %.3g/s is implausible", rate)
	}
	t.Logf("add-min ceiling %.3g/s", rate)
}

// TestPinnedCopiesPackPitchedRows copies rows of a pitched device matrix
// into pinned memory with the copy stream: packed 2D copies (pitch != n)
// to an offset, linear copies (pitch == n), and bounds errors.
func TestPinnedCopiesPackPitchedRows(t *testing.T) {
	const rows, pitch, n = 6, 7, 4
	matrix := make([]int32, rows*pitch)
	for i := range rows {
		for j := range pitch {
			matrix[i*pitch+j] = int32(100*i + j)
		}
	}
	err := testDevice.Do(func(c *Ctx) (err error) {
		dev, err := c.Alloc(rows*pitch*4, "pitched matrix")
		if err != nil {
			return err
		}
		defer ReleaseInto(&err, func() error { return c.Free(&dev) })
		if err := c.CopyInt32ToDevice(dev, matrix); err != nil {
			return err
		}
		host, err := AllocPinned(5 * n * 4)
		if err != nil {
			return err
		}
		defer ReleaseInto(&err, host.Free)
		out := host.Int32s(5 * n)
		for i := range out {
			out[i] = poison
		}
		cs, err := c.newCopyStream()
		if err != nil {
			return err
		}
		defer ReleaseInto(&err, cs.Close)
		// Matrix rows 2..4 packed to host rows 1..3, then row 0 to host
		// row 4 by a linear copy of its first n values.
		if err := host.CopyRowsFromDevice(n*4, n*4, dev.Ptr+2*pitch*4, pitch*4, n*4, 3, cs.CUDA()); err != nil {
			return err
		}
		if err := host.CopyRowsFromDevice(4*n*4, n*4, dev.Ptr, n*4, n*4, 1, cs.CUDA()); err != nil {
			return err
		}
		if err := cs.Sync(); err != nil {
			return err
		}
		for j := range n {
			if out[j] != poison {
				t.Errorf("host row 0 was written: %v", out[:n])
				break
			}
		}
		for i, from := range []int{2, 3, 4, 0} {
			for j := range n {
				if got, want := out[(i+1)*n+j], matrix[from*pitch+j]; got != want {
					t.Errorf("host row %d col %d = %d, want %d (matrix row %d)", i+1, j, got, want, from)
				}
			}
		}
		if err := host.CopyRowsFromDevice(3*n*4, n*4, dev.Ptr, pitch*4, n*4, 3, cs.CUDA()); err == nil {
			t.Error("a copy past the end of the pinned buffer was accepted")
		}
		if err := host.CopyRowsFromDevice(0, n*4, dev.Ptr, 2*4, n*4, 2, cs.CUDA()); err == nil {
			t.Error("rows wider than their pitch were accepted")
		}
		return cs.Sync()
	})
	if err != nil {
		t.Fatal(err)
	}
}
