//go:build cuda

package device

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/parallel"
)

// Large uploads (a graph, a hierarchy: hundreds of MB to GB, once a run)
// go through a few chunks of pinned memory instead of straight from Go
// memory. The driver copies pageable memory through staging buffers of
// its own, filled by one host thread, one chunk after another; here the
// host fills a chunk on several goroutines while the copy engine sends
// the chunk before it, so the upload runs at the pace of the host's
// memory bandwidth or the link's, whichever is lower.

// stagedUploadMinBytes is the smallest copy that is staged: below it the
// driver's own path costs less than handing out the work (a launch's
// seeds, a pass's sources).
const stagedUploadMinBytes = 8 << 20

// uploadChunkBytes is one chunk of the upload's pinned memory: large
// enough that a chunk's copy is long beside a launch of the copy, small
// enough that the two chunks of every open context cost little pinned
// memory (64 MiB a context).
const uploadChunkBytes = 32 << 20

// uploadChunks is how many chunks alternate: one filled by the host while
// the other is copied.
const uploadChunks = 2

// uploadFillers bounds the goroutines that fill one chunk: with four, 1
// GiB went up at 28.7 GB/s on an H100 host (BenchmarkUpload), against 7.7
// for the driver's own copy.
const uploadFillers = 4

// uploadStaging is a context's pinned chunks, its copy stream and one
// event per chunk, which says when the chunk's last copy is done and the
// host may fill it again. Made on the context's first large upload, kept
// until the context is destroyed.
type uploadStaging struct {
	chunks [uploadChunks]*Pinned
	copied [uploadChunks]cu.Event
	stream *Stream
}

// newUploadStaging allocates the chunks, the events and the stream.
func newUploadStaging(c *Ctx) (st *uploadStaging, err error) {
	st = &uploadStaging{}
	defer func() {
		if err != nil {
			err = errors.Join(err, st.close())
			st = nil
		}
	}()
	for i := range st.chunks {
		if st.chunks[i], err = AllocPinned(uploadChunkBytes); err != nil {
			return nil, err
		}
		if st.copied[i], err = cu.MakeEvent(cu.DisableTiming); err != nil {
			return nil, fmt.Errorf("gpu: creating an event: %w", err)
		}
	}
	// A blocking stream: its copies start after the work launched before
	// on the default stream, as the driver's synchronous copy does, so a
	// kernel still reading the buffer is not overwritten.
	if st.stream, err = c.NewStream(false); err != nil {
		return nil, err
	}
	return st, nil
}

// close frees what newUploadStaging made; copies enqueued still complete.
func (st *uploadStaging) close() error {
	var errs []error
	if st.stream != nil {
		errs = append(errs, st.stream.Close())
	}
	for i := range st.chunks {
		if st.copied[i] != (cu.Event{}) {
			errs = append(errs, cu.DestroyEvent(&st.copied[i]))
		}
		errs = append(errs, st.chunks[i].Free())
	}
	return errors.Join(errs...)
}

// upload copies bytes from src to dst through the chunks, and returns once
// the device holds them, as the driver's synchronous copy does. It waits
// for the stream after a failure too, so that no copy still reads a chunk
// when the next upload fills it.
func (st *uploadStaging) upload(dst cu.DevicePtr, src unsafe.Pointer, bytes int64) error {
	err := st.enqueue(dst, src, bytes)
	if serr := st.stream.CUDA().Synchronize(); serr != nil && err == nil {
		err = fmt.Errorf("gpu: waiting for an upload: %w", serr)
	}
	return err
}

// enqueue fills the chunks in turn and enqueues each one's copy to dst,
// waiting before it refills a chunk until the chunk's last copy is done.
func (st *uploadStaging) enqueue(dst cu.DevicePtr, src unsafe.Pointer, bytes int64) error {
	host := unsafe.Slice((*byte)(src), bytes)
	for k, off := 0, int64(0); off < bytes; k, off = k+1, off+uploadChunkBytes {
		i := k % uploadChunks
		n := min(uploadChunkBytes, bytes-off)
		if k >= uploadChunks {
			// The chunk's last copy must be done before the host
			// overwrites it.
			if err := st.copied[i].Synchronize(); err != nil {
				return fmt.Errorf("gpu: waiting for an upload chunk: %w", err)
			}
		}
		chunk := unsafe.Slice((*byte)(st.chunks[i].ptr), n)
		fillChunk(chunk, host[off:off+n])
		if err := cu.MemcpyHtoDAsync(dst+cu.DevicePtr(off), st.chunks[i].ptr, n, st.stream.CUDA()); err != nil {
			return fmt.Errorf("gpu: copying %s to the device: %w", FormatBytes(n), err)
		}
		if err := st.copied[i].Record(st.stream.CUDA()); err != nil {
			return fmt.Errorf("gpu: recording an event: %w", err)
		}
	}
	return nil
}

// fillChunk copies src into chunk (of src's length) on up to
// uploadFillers goroutines, 4 MiB or more each.
func fillChunk(chunk, src []byte) {
	parallel.Chunks(len(src), min(uploadFillers, runtime.GOMAXPROCS(0)), 4<<20, func(_, lo, hi int) {
		copy(chunk[lo:hi], src[lo:hi])
	})
}
