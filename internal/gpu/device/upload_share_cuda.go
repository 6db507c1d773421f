//go:build cuda

package device

import (
	"fmt"
	"sync"
	"unsafe"

	"gorgonia.org/cu"
)

// UploadShare lets the contexts that serve one request together send each
// of its large read-only host arrays (the graph, the hierarchy) over the
// host's link once: the first context to upload an array copies it from
// host memory, and the others copy that context's buffer over the peer
// link. Four NVIDIA H200s uploading the same 1 GB graph at once took
// 0.20-0.23 s each, against 0.08 s for one alone (each allocating its
// pinned chunks and filling them from the same host memory at once);
// shared, 0.10-0.14 s each.
//
// Only ShareInt32ToDevice and ShareInt64ToDevice go through the share,
// and only for copies of stagedUploadMinBytes or more; a context takes
// part while its Device has the share set (Device.ShareUploads). Freeing
// a buffer withdraws it from the share, so no context copies a buffer
// that is gone. Safe for concurrent use.
type UploadShare struct {
	mu     sync.Mutex
	arrays map[sharedKey]*sharedArray
	// peerCopies counts the arrays copied between contexts (begun), for
	// tests and reports.
	peerCopies int
}

// sharedKey names a host array by its address and length.
type sharedKey struct {
	host  uintptr
	bytes int64
}

// sharedArray is the first upload of one host array.
type sharedArray struct {
	// done is closed once the upload ended, with or without an error.
	done  chan struct{}
	owner *Ctx
	src   cu.DevicePtr
	// held: the upload succeeded and src still holds the array (false
	// once the owner freed it). Guarded by UploadShare.mu.
	held bool
	// readers counts the copies from src under way; freeing src waits
	// for them. Added to under UploadShare.mu while held is true.
	readers sync.WaitGroup
}

// NewUploadShare returns an empty share.
func NewUploadShare() *UploadShare {
	return &UploadShare{arrays: map[sharedKey]*sharedArray{}}
}

// PeerCopies is the number of arrays copied between contexts so far.
func (s *UploadShare) PeerCopies() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peerCopies
}

// ShareUploads makes d's context take part in share (nil: leave it) for
// the ShareInt32ToDevice and ShareInt64ToDevice copies that follow.
func (d *Device) ShareUploads(share *UploadShare) error {
	return d.Do(func(c *Ctx) error {
		c.share = share
		return nil
	})
}

// ShareInt32ToDevice copies src to the start of dst as CopyInt32ToDevice
// does, through the context's UploadShare when it has one: src must stay
// unchanged, and no kernel may write dst, for as long as dst lives.
func (c *Ctx) ShareInt32ToDevice(dst Buffer, src []int32) error {
	return c.sharedToDevice(dst, unsafe.Pointer(unsafe.SliceData(src)), int64(len(src))*4)
}

// ShareInt64ToDevice is ShareInt32ToDevice for int64 arrays.
func (c *Ctx) ShareInt64ToDevice(dst Buffer, src []int64) error {
	return c.sharedToDevice(dst, unsafe.Pointer(unsafe.SliceData(src)), int64(len(src))*8)
}

// sharedToDevice uploads src, or copies it from the context that uploaded
// it first when that context's GPU is reachable over the peer link; an
// upload that failed, a buffer already freed or an unreachable GPU sends
// it from host memory instead.
func (c *Ctx) sharedToDevice(dst Buffer, src unsafe.Pointer, bytes int64) error {
	s := c.share
	if s == nil || bytes < stagedUploadMinBytes || bytes > dst.Bytes {
		return c.toDevice(dst, src, bytes)
	}
	key := sharedKey{uintptr(src), bytes}
	s.mu.Lock()
	first, found := s.arrays[key]
	if !found {
		first = &sharedArray{done: make(chan struct{}), owner: c, src: dst.Ptr}
		s.arrays[key] = first
	}
	s.mu.Unlock()
	if !found {
		err := c.toDevice(dst, src, bytes)
		s.mu.Lock()
		first.held = err == nil
		s.mu.Unlock()
		close(first.done)
		return err
	}
	<-first.done
	s.mu.Lock()
	if !first.held || first.owner == c || !c.dev.reaches(first.owner.dev) {
		s.mu.Unlock()
		return c.toDevice(dst, src, bytes)
	}
	// Counted as a reader, the copy runs outside the lock, beside the
	// other devices' copies: the owner's Free waits for it (withdraw).
	first.readers.Add(1)
	s.peerCopies++
	s.mu.Unlock()
	err := c.copyPeer(dst.Ptr, first.owner, first.src, bytes)
	first.readers.Done()
	if err != nil {
		return fmt.Errorf("gpu: copying %s from device %d: %w", FormatBytes(bytes), first.owner.dev.Ordinal(), err)
	}
	return nil
}

// withdraw removes the arrays c uploaded into the buffer at ptr, which is
// being freed, and waits for the copies from it under way: later copies
// of them come from host memory again.
func (s *UploadShare) withdraw(c *Ctx, ptr cu.DevicePtr) {
	var gone []*sharedArray
	s.mu.Lock()
	for key, a := range s.arrays {
		if a.owner == c && a.src == ptr {
			a.held = false
			delete(s.arrays, key)
			gone = append(gone, a)
		}
	}
	s.mu.Unlock()
	for _, a := range gone {
		a.readers.Wait()
	}
}

// copyPeer copies bytes from src in owner's context to dst in c's, and
// returns once they are there. The copy goes on a stream of c's own
// (blocking, made on the first copy), so it waits for c's work launched
// before, as the synchronous copy does, but not for owner's: the driver's
// synchronous peer copy also waits for everything owner has queued, its
// next upload and its first searches included. It takes no pinned memory:
// allocating the upload staging's chunks on every device at once cost
// more than the copies.
func (c *Ctx) copyPeer(dst cu.DevicePtr, owner *Ctx, src cu.DevicePtr, bytes int64) error {
	if c.peerStream == nil {
		s, err := c.NewStream(false)
		if err != nil {
			return err
		}
		c.peerStream = s
	}
	if err := cu.MemcpyPeerAsync(dst, c.ctx, src, owner.ctx, bytes, c.peerStream.CUDA()); err != nil {
		return err
	}
	return c.peerStream.CUDA().Synchronize()
}
