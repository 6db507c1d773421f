//go:build cuda

package device

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
	"unsafe"

	"gorgonia.org/cu"
)

// TestStagedUploadsRoundTrip checks uploads through the pinned chunks
// against what comes back: sizes at the threshold, at and around a chunk,
// over several chunks so that each chunk is filled again, and one that
// ends mid-chunk; each into a buffer poisoned first and at an offset, so
// that a chunk copied to the wrong place or not at all shows. The last,
// small upload takes the driver's path.
func TestStagedUploadsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []int64{
		stagedUploadMinBytes,
		uploadChunkBytes - 4, uploadChunkBytes, uploadChunkBytes + 4,
		uploadChunks*uploadChunkBytes + 12, 5*uploadChunkBytes + uploadChunkBytes/3,
		1024, // the driver's path
	}
	err := testDevice.Do(func(c *Ctx) (err error) {
		largest := int64(0)
		for _, s := range sizes {
			largest = max(largest, s)
		}
		const pad = 64 // int32s kept poisoned before and after
		b, err := c.Alloc(largest+2*pad*4, "staged uploads")
		if err != nil {
			return err
		}
		defer ReleaseInto(&err, func() error { return c.Free(&b) })
		for _, bytes := range sizes {
			n := bytes / 4
			want := make([]int32, n)
			for i := range want {
				want[i] = rng.Int32()
			}
			if err := c.FillInt32(b, poison); err != nil {
				return err
			}
			at := Buffer{Ptr: b.Ptr + pad*4, Bytes: b.Bytes - pad*4}
			if err := c.CopyInt32ToDevice(at, want); err != nil {
				return fmt.Errorf("%d bytes: %w", bytes, err)
			}
			got := make([]int32, n+2*pad)
			if err := c.CopyInt32FromDevice(got, b); err != nil {
				return err
			}
			for i, v := range got {
				w := poison
				if i >= pad && i < pad+int(n) {
					w = want[i-pad]
				}
				if v != w {
					return fmt.Errorf("%d bytes: int32 %d (of %d and %d of padding each side) is %#x, want %#x", bytes, i, n, pad, v, w)
				}
			}
		}
		if bytes := sizes[0]; c.upload == nil {
			return fmt.Errorf("a %d-byte upload made no staging", bytes)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkUpload compares the driver's copy of Go memory with the staged
// upload, 1 GiB at a time, against the link's nominal bandwidth (64 GB/s
// a direction for PCIe 5 x16): 7.7 and 28.7 GB/s on an H100 host.
func BenchmarkUpload(b *testing.B) {
	const bytes = 1 << 30
	host := make([]int32, bytes/4)
	for i := range host {
		host[i] = int32(i)
	}
	for _, path := range []string{"driver", "staged"} {
		b.Run(path, func(b *testing.B) {
			b.SetBytes(bytes)
			err := testDevice.Do(func(c *Ctx) (err error) {
				buf, err := c.Alloc(bytes, "upload benchmark")
				if err != nil {
					return err
				}
				defer ReleaseInto(&err, func() error { return c.Free(&buf) })
				start := time.Now()
				for range b.N {
					if path == "driver" {
						err = cu.MemcpyHtoD(buf.Ptr, unsafe.Pointer(&host[0]), bytes)
					} else {
						err = c.CopyInt32ToDevice(buf, host)
					}
					if err != nil {
						return err
					}
				}
				b.ReportMetric(float64(bytes)*float64(b.N)/time.Since(start).Seconds()/1e9, "GB/s")
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}
