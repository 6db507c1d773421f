//go:build cuda

package device

import (
	"errors"
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/kernels"
)

// Ctx is a Device's CUDA context as seen from its own thread: valid only
// inside Device.Do, and only on that call's goroutine.
type Ctx struct {
	dev *Device
	ctx cu.CUContext
	// kernels are the kernels loaded into this context.
	kernels *kernels.Module
	// upload is the pinned staging of large uploads, made on the first
	// (nil until then, or after it could not be made).
	upload       *uploadStaging
	uploadFailed bool
	// share, when not nil, is the UploadShare the context's shared
	// uploads go through (Device.ShareUploads); peerStream carries their
	// copies from other contexts (nil until the first).
	share      *UploadShare
	peerStream *Stream
}

// Device is the device the context belongs to.
func (c *Ctx) Device() *Device { return c.dev }

// Kernels are the launch wrappers of the context's kernels, each loaded on
// its first launch.
func (c *Ctx) Kernels() *kernels.Module { return c.kernels }

// Buffer is a device allocation. The zero Buffer (null pointer, no bytes)
// is what Alloc returns for zero bytes; Free accepts it.
type Buffer struct {
	// Ptr is the device address, passed to kernels as is.
	Ptr cu.DevicePtr
	// Bytes is the allocation's size.
	Bytes int64
}

// MemInfo returns the free and total device memory in bytes.
func (c *Ctx) MemInfo() (free, total int64, err error) {
	free, total, err = cu.MemInfo()
	if err != nil {
		return 0, 0, fmt.Errorf("gpu: querying device memory: %w", err)
	}
	return free, total, nil
}

// Reserve checks that need bytes are free, so that a run allocating
// several buffers fails before the first rather than half way. The error
// is an *OutOfMemoryError naming what.
func (c *Ctx) Reserve(need int64, what string) error {
	free, total, err := c.MemInfo()
	if err != nil {
		return err
	}
	if need > free {
		return &OutOfMemoryError{What: what, Need: need, Free: free, Total: total}
	}
	return nil
}

// Alloc allocates bytes of device memory after checking they are free
// (see Reserve); what names the buffer in errors.
func (c *Ctx) Alloc(bytes int64, what string) (Buffer, error) {
	if bytes < 0 {
		return Buffer{}, fmt.Errorf("gpu: %s: negative size %d", what, bytes)
	}
	if bytes == 0 {
		return Buffer{}, nil
	}
	if err := c.Reserve(bytes, what); err != nil {
		return Buffer{}, err
	}
	ptr, err := cu.MemAlloc(bytes)
	if err != nil {
		return Buffer{}, fmt.Errorf("gpu: allocating %s (%s): %w", what, FormatBytes(bytes), err)
	}
	return Buffer{Ptr: ptr, Bytes: bytes}, nil
}

// Free releases b and zeroes it; freeing a zero Buffer does nothing.
func (c *Ctx) Free(b *Buffer) error {
	if b.Ptr == 0 {
		return nil
	}
	if c.share != nil {
		c.share.withdraw(c, b.Ptr)
	}
	err := cu.MemFree(b.Ptr)
	*b = Buffer{}
	if err != nil {
		return fmt.Errorf("gpu: freeing device memory: %w", err)
	}
	return nil
}

// Sync waits for all work in the context and returns the first
// asynchronous error (a kernel fault, for instance).
func (c *Ctx) Sync() error {
	if err := cu.Synchronize(); err != nil {
		return fmt.Errorf("gpu: synchronising: %w", err)
	}
	return nil
}

// CopyInt32ToDevice copies src to the start of dst.
func (c *Ctx) CopyInt32ToDevice(dst Buffer, src []int32) error {
	return c.toDevice(dst, unsafe.Pointer(unsafe.SliceData(src)), int64(len(src))*4)
}

// CopyInt64ToDevice copies src to the start of dst.
func (c *Ctx) CopyInt64ToDevice(dst Buffer, src []int64) error {
	return c.toDevice(dst, unsafe.Pointer(unsafe.SliceData(src)), int64(len(src))*8)
}

// CopyInt32FromDevice fills dst from the start of src.
func (c *Ctx) CopyInt32FromDevice(dst []int32, src Buffer) error {
	return c.toHost(unsafe.Pointer(unsafe.SliceData(dst)), src, int64(len(dst))*4)
}

// CopyInt64FromDevice fills dst from the start of src.
func (c *Ctx) CopyInt64FromDevice(dst []int64, src Buffer) error {
	return c.toHost(unsafe.Pointer(unsafe.SliceData(dst)), src, int64(len(dst))*8)
}

// CopyOnDevice copies the first bytes of src to the start of dst.
func (c *Ctx) CopyOnDevice(dst, src Buffer, bytes int64) error {
	if bytes == 0 {
		return nil
	}
	if bytes > src.Bytes || bytes > dst.Bytes {
		return fmt.Errorf("gpu: copying %d bytes between buffers of %d and %d bytes", bytes, src.Bytes, dst.Bytes)
	}
	if err := cu.MemcpyDtoD(dst.Ptr, src.Ptr, bytes); err != nil {
		return fmt.Errorf("gpu: copying %s on the device: %w", FormatBytes(bytes), err)
	}
	return nil
}

func (c *Ctx) toHost(dst unsafe.Pointer, src Buffer, bytes int64) error {
	if bytes == 0 {
		return nil
	}
	if bytes > src.Bytes {
		return fmt.Errorf("gpu: copying %d bytes from a %d-byte buffer", bytes, src.Bytes)
	}
	if err := cu.MemcpyDtoH(dst, src.Ptr, bytes); err != nil {
		return fmt.Errorf("gpu: copying %s to the host: %w", FormatBytes(bytes), err)
	}
	return nil
}

func (c *Ctx) toDevice(dst Buffer, src unsafe.Pointer, bytes int64) error {
	if bytes == 0 {
		return nil
	}
	if bytes > dst.Bytes {
		return fmt.Errorf("gpu: copying %d bytes into a %d-byte buffer", bytes, dst.Bytes)
	}
	if st := c.uploadStaging(bytes); st != nil {
		return st.upload(dst.Ptr, src, bytes)
	}
	if err := cu.MemcpyHtoD(dst.Ptr, src, bytes); err != nil {
		return fmt.Errorf("gpu: copying %s to the device: %w", FormatBytes(bytes), err)
	}
	return nil
}

// uploadStaging returns the context's staging for an upload of bytes, or
// nil where the copy goes straight from Go memory: a small copy, or a
// context whose pinned memory could not be had (then every copy is
// direct, as a host short of pinned memory still copies that way).
func (c *Ctx) uploadStaging(bytes int64) *uploadStaging {
	if bytes < stagedUploadMinBytes || c.uploadFailed {
		return nil
	}
	if c.upload == nil {
		st, err := newUploadStaging(c)
		if err != nil {
			c.uploadFailed = true
			return nil
		}
		c.upload = st
	}
	return c.upload
}

// closeUploads frees the upload staging, if any; the context's thread
// calls it before destroying the context.
func (c *Ctx) closeUploads() error {
	var errs []error
	if c.peerStream != nil {
		errs = append(errs, c.peerStream.Close())
		c.peerStream = nil
	}
	if c.upload != nil {
		errs = append(errs, c.upload.close())
		c.upload = nil
	}
	return errors.Join(errs...)
}

// FillInt32 sets every int32 of b to v.
func (c *Ctx) FillInt32(b Buffer, v int32) error {
	if b.Bytes == 0 {
		return nil
	}
	if err := cu.MemsetD32(b.Ptr, uint32(v), b.Bytes/4); err != nil {
		return fmt.Errorf("gpu: filling device memory: %w", err)
	}
	return nil
}
