//go:build cuda

package device

/*
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include "driver.h"

static const char *error_name(CUresult r) {
	const char *s = 0;
	if (driver_cuGetErrorName(r, &s) != CUDA_SUCCESS || s == 0) return "unknown CUDA error";
	return s;
}

// map_huge maps bytes of anonymous memory starting on a huge_bytes
// boundary (bytes a multiple of it) and advises transparent huge pages
// over it; NULL when the mapping fails, errno saying why. The advice may
// be refused (THP off): the memory is then plain pages.
static void *map_huge(size_t bytes, size_t huge_bytes) {
	size_t mapped = bytes + huge_bytes;
	char *p = mmap(0, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) return 0;
	char *start = (char *)(((uintptr_t)p + huge_bytes - 1) & ~(uintptr_t)(huge_bytes - 1));
	if (start > p) munmap(p, start - p);
	if (start + bytes < p + mapped) munmap(start + bytes, p + mapped - (start + bytes));
	madvise(start, bytes, MADV_HUGEPAGE);
	return start;
}

// Portable: the memory counts as pinned in every context, not only the one
// current when it was registered.
static CUresult host_register(void *p, size_t bytes) {
	return driver_cuMemHostRegister(p, bytes, CU_MEMHOSTREGISTER_PORTABLE);
}

static CUresult copy_dtoh_async(void *dst, CUdeviceptr src, size_t bytes, CUstream s) {
	return driver_cuMemcpyDtoHAsync(dst, src, bytes, s);
}

// copy_rows_async copies height rows of width bytes between pinned host
// rows and device rows, each side's rows its own pitch apart: one copy
// packs or spreads pitched rows. to_host chooses the direction.
static CUresult copy_rows_async(int to_host, void *host, size_t host_pitch, CUdeviceptr dev, size_t dev_pitch,
                                size_t width, size_t height, CUstream s) {
	CUDA_MEMCPY2D c;
	memset(&c, 0, sizeof c);
	c.srcMemoryType = to_host ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
	c.srcPitch = to_host ? dev_pitch : host_pitch;
	c.dstMemoryType = to_host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
	c.dstPitch = to_host ? host_pitch : dev_pitch;
	// Only the pointer of each side's memory type is read.
	if (to_host) {
		c.srcDevice = dev;
		c.dstHost = host;
	} else {
		c.srcHost = host;
		c.dstDevice = dev;
	}
	c.WidthInBytes = width;
	c.Height = height;
	return driver_cuMemcpy2DAsync(&c, s);
}

static CUresult host_unregister(void *p) {
	return driver_cuMemHostUnregister(p);
}

static void unmap(void *p, size_t bytes) { munmap(p, bytes); }

*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/parallel"
)

// Page-locked host memory and asynchronous copies into it, through the
// driver API that gorgonia.org/cu does not wrap (driver.h). Only pinned memory is
// handed to an asynchronous copy: the copy engine writes it while the host
// goes on, which Go memory (movable, and pageable so the driver would stage
// it synchronously anyway) does not allow.

func driverError(what string, r C.CUresult) error {
	return fmt.Errorf("gpu: %s: %s", what, C.GoString(C.error_name(r)))
}

// cStream is the driver's handle of s. gorgonia.org/cu v0.9.6 cannot make
// these copies itself (its Memcpy2DAsync dereferences the unset array
// handles of a host or device copy and panics) and does not export a
// stream's handle, which is a cu.Stream's only field; streamHandleSize
// below stops the build if that layout changes.
func cStream(s cu.Stream) C.CUstream { return *(*C.CUstream)(unsafe.Pointer(&s)) }

// streamHandleSize fails to compile unless a cu.Stream is exactly one
// driver handle wide, the layout cStream relies on.
var streamHandleSize [unsafe.Sizeof(cu.Stream{}) - unsafe.Sizeof(C.CUstream(nil))]struct{}

var _ [unsafe.Sizeof(C.CUstream(nil)) - unsafe.Sizeof(cu.Stream{})]struct{} = streamHandleSize

// Pinned is page-locked host memory, usable from every context. Allocate
// and free it on a device's thread (inside Device.Do).
type Pinned struct {
	ptr unsafe.Pointer
	// bytes is what was asked for, mapped what is mapped from ptr on (a
	// whole number of huge pages).
	bytes, mapped int64
}

// hugePageBytes is the size of a transparent huge page on x86-64 and
// arm64, and the unit pinned memory is mapped in.
const hugePageBytes = 2 << 20

// touchPageBytes is the smallest page a host may back memory with: one
// write every touchPageBytes faults in every page of a mapping, huge or
// not.
const touchPageBytes = 4 << 10

// AllocPinned allocates bytes (at least 1) of pinned host memory: an
// anonymous mapping advised to use transparent huge pages, faulted in by
// every core, then registered with the driver (cuMemHostRegister).
//
// Why not cuMemHostAlloc: it faults the memory in itself, one 4 KiB page
// at a time on one thread, and on the virtual machines that host GPUs
// such faults are the cost of pinning. On an H200 host, 402 MB took
// 170-245 ms through cuMemHostAlloc; touching the same memory in 4 KiB
// pages took 220-270 ms, in huge pages 70-95 ms, and registering it
// afterwards 8-22 ms. On four devices at once the calls also queue
// behind each other inside the driver (60 ms a call where one device
// alone took 22), while the faults taken here run side by side.
func AllocPinned(bytes int64) (*Pinned, error) {
	bytes = max(bytes, 1)
	mapped := (bytes + hugePageBytes - 1) / hugePageBytes * hugePageBytes
	p, errno := C.map_huge(C.size_t(mapped), hugePageBytes)
	if p == nil {
		return nil, fmt.Errorf("gpu: mapping %s of host memory to pin: %w", FormatBytes(bytes), errno)
	}
	touch(unsafe.Slice((*byte)(p), mapped))
	if r := C.host_register(p, C.size_t(mapped)); r != C.CUDA_SUCCESS {
		C.unmap(p, C.size_t(mapped))
		return nil, driverError(fmt.Sprintf("pinning %s of host memory", FormatBytes(bytes)), r)
	}
	return &Pinned{ptr: p, bytes: bytes, mapped: mapped}, nil
}

// touch writes a zero to every page of mem, huge pages at a time on every
// core, so that the kernel backs all of it before the driver pins it.
func touch(mem []byte) {
	pages := len(mem) / hugePageBytes
	parallel.Chunks(pages, runtime.GOMAXPROCS(0), 1, func(_, lo, hi int) {
		for at := lo * hugePageBytes; at < hi*hugePageBytes; at += touchPageBytes {
			mem[at] = 0
		}
	})
}

// Free releases the memory; later calls do nothing.
func (p *Pinned) Free() error {
	if p == nil || p.ptr == nil {
		return nil
	}
	r := C.host_unregister(p.ptr)
	C.unmap(p.ptr, C.size_t(p.mapped))
	p.ptr, p.bytes, p.mapped = nil, 0, 0
	if r != C.CUDA_SUCCESS {
		return driverError("unpinning host memory", r)
	}
	return nil
}

// Int32s is the first count int32 of the memory.
func (p *Pinned) Int32s(count int64) []int32 {
	if count == 0 {
		return []int32{}
	}
	return unsafe.Slice((*int32)(p.ptr), count)
}

// at is the address of byte offset off after checking that a copy of
// bytes fits there.
func (p *Pinned) at(off, bytes int64) (unsafe.Pointer, error) {
	if off < 0 || bytes < 0 || off+bytes > p.bytes {
		return nil, fmt.Errorf("gpu: copying %d bytes to offset %d of a %d-byte pinned buffer", bytes, off, p.bytes)
	}
	return unsafe.Add(p.ptr, off), nil
}

// CopyFromDevice enqueues on s a copy of bytes from src to byte offset off.
func (p *Pinned) CopyFromDevice(off int64, src cu.DevicePtr, bytes int64, s cu.Stream) error {
	if bytes == 0 {
		return nil
	}
	dst, err := p.at(off, bytes)
	if err != nil {
		return err
	}
	if r := C.copy_dtoh_async(dst, C.CUdeviceptr(src), C.size_t(bytes), cStream(s)); r != C.CUDA_SUCCESS {
		return driverError(fmt.Sprintf("copying %s to the host", FormatBytes(bytes)), r)
	}
	return nil
}

// CopyRowsFromDevice enqueues on s a copy of height rows of width bytes,
// srcPitch bytes apart on the device from src, to rows dstPitch bytes apart
// from byte offset off: one 2D copy, which packs pitched rows when dstPitch
// is width. Equal pitches make it one linear copy.
func (p *Pinned) CopyRowsFromDevice(off, dstPitch int64, src cu.DevicePtr, srcPitch, width, height int64, s cu.Stream) error {
	if srcPitch == width && dstPitch == width {
		return p.CopyFromDevice(off, src, width*height, s)
	}
	return p.copyRows(true, off, dstPitch, src, srcPitch, width, height, s)
}

// CopyRowsToDevice enqueues on s a copy of height rows of width bytes,
// srcPitch bytes apart from byte offset off, to device rows dstPitch bytes
// apart from dst (copyRowsFromDevice's counterpart).
func (p *Pinned) CopyRowsToDevice(off, srcPitch int64, dst cu.DevicePtr, dstPitch, width, height int64, s cu.Stream) error {
	return p.copyRows(false, off, srcPitch, dst, dstPitch, width, height, s)
}

// copyRows enqueues on s a 2D copy between height rows of width bytes at
// byte offset off, hostPitch bytes apart, and device rows devPitch bytes
// apart at dev, to the host when toHost.
func (p *Pinned) copyRows(toHost bool, off, hostPitch int64, dev cu.DevicePtr, devPitch, width, height int64, s cu.Stream) error {
	if width == 0 || height == 0 {
		return nil
	}
	host, err := p.at(off, hostPitch*(height-1)+width)
	if err != nil {
		return err
	}
	if width > hostPitch || width > devPitch {
		return fmt.Errorf("gpu: rows of %d bytes with pitches %d and %d", width, hostPitch, devPitch)
	}
	dir, what := C.int(0), "device"
	if toHost {
		dir, what = 1, "host"
	}
	r := C.copy_rows_async(dir, host, C.size_t(hostPitch), C.CUdeviceptr(dev), C.size_t(devPitch),
		C.size_t(width), C.size_t(height), cStream(s))
	if r != C.CUDA_SUCCESS {
		return driverError(fmt.Sprintf("copying %d rows of %s to the %s", height, FormatBytes(width), what), r)
	}
	return nil
}

// CopyStream is a stream for device-to-host copies that does not
// synchronise with the legacy default stream, on which the kernels run:
// its copies overlap them, and it orders itself after kernels only where
// afterKernels says so. Its start and stop events time it.
type CopyStream struct {
	s                  cu.Stream
	ready, start, stop cu.Event
	started            bool
}

// CUDA is the stream's handle, for enqueuing copies on it.
func (cs *CopyStream) CUDA() cu.Stream { return cs.s }

// newCopyStream creates the stream and its events; close them with close.
func (c *Ctx) newCopyStream() (*CopyStream, error) {
	s, err := cu.MakeStream(cu.NonBlocking)
	if err != nil {
		return nil, fmt.Errorf("gpu: creating a copy stream: %w", err)
	}
	cs := &CopyStream{s: s}
	for _, e := range []struct {
		ev    *cu.Event
		flags cu.EventFlags
	}{{&cs.ready, cu.DisableTiming}, {&cs.start, cu.DefaultEvent}, {&cs.stop, cu.DefaultEvent}} {
		if *e.ev, err = cu.MakeEvent(e.flags); err != nil {
			return nil, errors.Join(fmt.Errorf("gpu: creating an event: %w", err), cs.Close())
		}
	}
	return cs, nil
}

// AfterKernels makes the copies enqueued from now on wait for the work
// launched so far on the legacy default stream.
func (cs *CopyStream) AfterKernels() error {
	if err := cs.ready.Record(cu.Stream{}); err != nil {
		return fmt.Errorf("gpu: recording an event: %w", err)
	}
	if err := cs.s.Wait(cs.ready, 0); err != nil {
		return fmt.Errorf("gpu: ordering the copy stream: %w", err)
	}
	return nil
}

// markStart records the start event before the first copy.
func (cs *CopyStream) markStart() error {
	if cs.started {
		return nil
	}
	cs.started = true
	if err := cs.start.Record(cs.s); err != nil {
		return fmt.Errorf("gpu: recording an event: %w", err)
	}
	return nil
}

// Elapsed records the stop event, waits for it and returns the stream's
// time since markStart (0 if nothing was copied).
func (cs *CopyStream) Elapsed() (time.Duration, error) {
	if !cs.started {
		return 0, nil
	}
	if err := cs.stop.Record(cs.s); err != nil {
		return 0, fmt.Errorf("gpu: recording an event: %w", err)
	}
	if err := cs.stop.Synchronize(); err != nil {
		return 0, fmt.Errorf("gpu: waiting for the copy stream: %w", err)
	}
	ms, err := cs.start.Elapsed(cs.stop)
	if err != nil {
		return 0, fmt.Errorf("gpu: reading event times: %w", err)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// Sync waits for every copy enqueued so far and returns the first
// asynchronous error.
func (cs *CopyStream) Sync() error {
	if err := cs.s.Synchronize(); err != nil {
		return fmt.Errorf("gpu: waiting for the copy stream: %w", err)
	}
	return nil
}

// Close destroys the events and the stream; copies already enqueued still
// complete.
func (cs *CopyStream) Close() error {
	var errs []error
	for _, e := range []*cu.Event{&cs.ready, &cs.start, &cs.stop} {
		if *e != (cu.Event{}) {
			errs = append(errs, cu.DestroyEvent(e))
		}
	}
	if cs.s != (cu.Stream{}) {
		errs = append(errs, cs.s.Destroy())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("gpu: closing the copy stream: %w", err)
	}
	return nil
}
