// Package gpu is pathflow's CUDA backend, built on gorgonia.org/cu and the
// kernels of package kernels.
//
// Build tags: everything that calls the CUDA driver builds only with -tags
// cuda, and such a build registers the backend as "gpu" (register_cuda.go;
// programs link it with a blank import of this package). Without the tag
// the package compiles without cgo and registers nothing; its host-side
// planning (Choose's decisions, the staging shapes, parent repair) is still
// built and tested. A cuda build links no CUDA library and starts without
// the NVIDIA driver: gorgonia.org/cu (pathflow's copy in third_party/cu)
// loads libcuda.so.1 at run time and records a failed initialisation, which
// Available reports as the reason the GPU cannot be used (driver.go: no
// driver library, or no device). The driver calls made here rather than
// through gorgonia.org/cu resolve through the same library (driver.h).
//
// Layers, bottom up (cuda builds):
//
//   - Device (device.go): one GPU and its CUDA context. A CUDA context is
//     bound to an OS thread, so each Device runs a goroutine locked to its
//     own thread, and Device.Do hands it closures. Everything that touches
//     the GPU runs inside Do and receives a *Ctx.
//   - Ctx (memory.go, timer.go, stream.go): the context as seen from its
//     own thread: Alloc (which first checks free device memory and fails
//     with an *OutOfMemoryError naming the size needed and available),
//     Reserve (the same check for several buffers at once), typed
//     host/device copies, FillInt32, Sync, event timers (NewTimer) and
//     streams ordered by Mark and WaitFor (NewStream).
//   - Pinned staging (pinned.go, staging_cuda.go, staging.go): page-locked
//     host memory (cuMemHostAlloc, portable to every context), 1D and 2D
//     asynchronous device-to-host copies on a copy stream that does not
//     wait for the kernels' default stream, and Backend.stream, which hands
//     a run's rows to a results.Sink in blocks of a bounded results.Pool:
//     the copy engine fills one block while the consumer encodes others,
//     and the next batch's kernels run meanwhile. Go memory is never the
//     target of an asynchronous copy.
//   - DeviceEdgeList and DeviceCSR (graph.go): a graph uploaded once, as
//     flat int32/int64 buffers that kernels index directly.
//   - Launch wrappers: package kernels, one typed method per kernel on the
//     kernels.Module of each context, loading each kernel on its first launch
//     (c.kernels.FloydWarshallFastRest(cfg, ...)); call them inside Do.
//     launch.go holds the shape helpers. With PATHFLOW_GPU_SYNC=1 every
//     launch synchronises, is timed, and is logged to stderr, so a fault
//     names its kernel (SetLaunchDebug does the same from code).
//   - Backend (backend.go): the backend.Backend. Run takes a Choice made by
//     the Factory's Choose (choose.go, plan.go, sssp_plan.go: decided on the
//     host from the graph's size and weight range) and runs the
//     floyd-warshall family (floyd_warshall.go: the matrix stays on the
//     device, requested rows stream out) or the sssp, bellman-ford and
//     dijkstra families (sssp_*.go, devicegraph.go; see docs/gpu-sssp.md:
//     batches of sources into double-buffered device rows, then staging).
//     PrepareAllPairs (Compute, event-timed; Stream) and PrepareSSSP
//     (Solve) split a run for benchmarks. AddMinCeiling (ceiling.go)
//     measures the int32 add-min rate the kernels are compared with.
//
// Adding a GPU algorithm: write kernels/<name>.cu and run
// go generate ./kernels; in a new file here, inside Device.Do, upload the
// graph (Ctx.UploadCSR), allocate outputs (Ctx.Alloc), launch the generated
// wrappers with shapes from launch.go, time with Ctx.NewTimer, and hand the
// rows to Backend.stream with the copies that fill a block. Plan and
// validate on the host first, in a file without the cuda tag, so that CI
// tests that part, and teach choose the new name.
//
// Distances on the GPU are int32 with graph.Inf32 as infinity. A graph
// whose distances might not fit (graph.FitsInt32Distances, and with negative
// arcs twice the distance bound, see ErrNeedsInt64) is refused with an error
// wrapping ErrNeedsInt64 (and backend.ErrNeedsInt64), which callers answer
// by running on the CPU: the backend never returns a wrong answer.
package gpu
