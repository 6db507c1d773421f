// Package device is the device layer of the GPU backend: everything the
// algorithm packages (allpairs, sssp) run on, and the only cgo of the
// backend. Graphs uploaded to a device live in internal/gpu/devicegraph,
// the host-side bookkeeping of runs split among devices in
// internal/gpu/spread.
//
//   - Device (device_cuda.go): one GPU and its CUDA context. A CUDA context is
//     bound to an OS thread, so each Device runs a goroutine locked to its
//     own thread, and Device.Do hands it closures. Everything that touches
//     the GPU runs inside Do and receives a *Ctx. Open, ResolveDevices and
//     EnablePeerAccess (devices_cuda.go) select and link devices; Available
//     (driver_cuda.go) says whether a GPU can be used at all.
//   - Ctx (memory_cuda.go, timer_cuda.go, stream_cuda.go): the context as
//     seen from its own thread: Alloc (which first checks free device memory and fails
//     with an *OutOfMemoryError naming the size needed and available),
//     Reserve (the same check for several buffers at once), typed
//     host/device copies, FillInt32, Sync, event timers (NewTimer), streams
//     ordered by Mark and WaitFor (NewStream), and the context's kernels
//     (Kernels: package kernels' typed launch wrappers, each kernel loaded
//     on its first launch).
//   - Pinned memory (pinned_cuda.go, driver.c, driver.h): page-locked host
//     memory (mapped in huge pages, faulted in on every core, then
//     registered with cuMemHostRegister, portable to every context), 1D and 2D
//     asynchronous copies, and CopyStream, a copy stream that does not
//     wait for the kernels' default stream. Go memory is never the target
//     of an asynchronous copy.
//   - Staging (staging.go, staging_cuda.go): a Stager per device hands a
//     run's rows to a results.Sink in blocks of a bounded results.Pool of
//     pinned blocks: the copy engine fills one block while the consumer
//     encodes others, and the next batch's kernels run meanwhile. Its
//     pinned blocks are kept between runs.
//   - Launch helpers (launch_cuda.go, cooperative_cuda.go): the grid shapes
//     that depend on the device (those that depend on sizes alone are in
//     package kernels), and kernels loaded for cooperative launches through
//     the driver API (CooperativeKernel, which the generated wrappers of
//     cooperative kernels launch). With PATHFLOW_GPU_SYNC=1 every ordinary
//     launch synchronises, is timed, and is logged to stderr, so a fault
//     names its kernel.
//   - AddMinCeiling (ceiling_cuda.go) measures the int32 add-min rate the
//     kernels are compared with.
//
// Without the cuda build tag only the host-side parts build: the errors,
// the staging shapes and stream statistics and the host memory probe.
package device
