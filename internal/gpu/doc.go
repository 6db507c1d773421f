// Package gpu is pathflow's CUDA backend: the backend.Backend that runs
// shortest paths on NVIDIA GPUs, its options, and the Factory's Choose and
// registration. It is built on three packages:
//
//   - device (internal/gpu/device): the device layer, and the only cgo.
//     A Device is one GPU and its CUDA context, bound to a locked OS thread
//     (Device.Do hands it closures, which receive a *Ctx); Ctx allocates
//     (checking free memory first: *OutOfMemoryError), copies and fills
//     device memory, makes streams and event timers; page-locked host
//     memory (Pinned) with a copy stream that overlaps the kernels; and a
//     Stager per device that streams result rows to a results.Sink in
//     blocks of a bounded pinned pool, the copy engine filling one block
//     while the consumer encodes others. Also the driver probe
//     (Available), launch shapes, the PATHFLOW_GPU_SYNC launch debugging,
//     the add-min ceiling, the errors shared by the algorithm packages and
//     the host-side helpers of runs split among devices.
//   - allpairs (internal/gpu/allpairs): the floyd-warshall family (naive,
//     row, blocked, fast), its plans and parent strategies, and its
//     placement on one device, in row slabs over several, or out of core;
//     rows stream out of the matrix on the device.
//   - sssp (internal/gpu/sssp): the single-source searches (near-far,
//     bf-flags, bf-stride, bf-naive, dijkstra), the batched near-far
//     search of many sources, their plans, and the host-side parent
//     repair and negative-cycle location (see docs/gpu-sssp.md).
//
// Build tags: everything that calls the CUDA driver builds only with -tags
// cuda, and such a build registers the backend as "gpu" (register_cuda.go;
// programs link it with a blank import of this package). Without the tag
// the packages compile without cgo and this one registers nothing; the
// host-side planning (Choose's decisions, layouts, staging shapes, parent
// repair) is still built and tested. A cuda build links no CUDA library
// and starts without the NVIDIA driver: gorgonia.org/cu (pathflow's copy
// in third_party/cu) loads libcuda.so.1 at run time and records a failed
// initialisation, which device.Available reports as the reason the GPU
// cannot be used (no driver library, or no device). The driver calls made
// in package device rather than through gorgonia.org/cu resolve through
// the same library (device/driver.h).
//
// Backend.Run takes a Choice made by the Factory's Choose (choose.go:
// decided on the host from the graph's size and weight range) and hands the
// request to allpairs.Serve or sssp.Serve with the selected devices'
// stagers. PrepareAllPairs, PrepareSSSP and SolveBatch split a run for
// benchmarks (internal/gpubench).
//
// Adding a GPU algorithm: write kernels/<name>.cu and run
// go generate ./kernels; in the algorithm's package, inside Device.Do,
// upload the graph (Ctx.UploadCSR), allocate outputs (Ctx.Alloc), launch
// the generated wrappers (Ctx.Kernels) with shapes from device's launch
// helpers, time with Ctx.NewTimer, and hand the rows to Stager.Stream with
// the copies that fill a block. Plan and validate on the host first, in a
// file without the cuda tag, so that CI tests that part, and teach choose
// the new name.
//
// Distances on the GPU are int32 with graph.Inf32 as infinity. A graph
// whose distances might not fit (graph.FitsInt32Distances, and with negative
// arcs twice the distance bound, see device.ErrNeedsInt64) is refused with
// an error wrapping device.ErrNeedsInt64 (and backend.ErrNeedsInt64), which
// callers answer by running on the CPU: the backend never returns a wrong
// answer.
package gpu
