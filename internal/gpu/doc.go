// Package gpu is pathflow's CUDA backend, built on gorgonia.org/cu and the
// kernels of package kernels.
//
// Build tags: everything that links libcuda builds only with -tags cuda.
// Without the tag the package still compiles (no cgo): Available reports
// false and New returns ErrNoCUDA, so the rest of pathflow picks the CPU.
// A cuda build needs the NVIDIA driver at run time: gorgonia.org/cu
// initialises the driver when the program starts and exits if it cannot.
//
// Layers, bottom up (cuda builds):
//
//   - Device (device.go): one GPU and its CUDA context. A CUDA context is
//     bound to an OS thread, so each Device runs a goroutine locked to its
//     own thread, and Device.Do hands it closures. Everything that touches
//     the GPU runs inside Do and receives a *Ctx.
//   - Ctx (memory.go, timer.go): the context as seen from its own thread:
//     Alloc (which first checks free device memory and fails with an
//     *OutOfMemoryError naming the size needed and available), typed
//     host/device copies, Fill, Sync, and event timers (NewTimer).
//   - DeviceEdgeList and DeviceCSR (graph.go): a graph uploaded once, as
//     flat int32/int64 buffers that kernels index directly.
//   - Launch wrappers: package kernels, one typed function per kernel
//     (kernels.FloydWarshallFastRest(cfg, ...)); call them inside Do.
//     launch.go holds the shape helpers. With PATHFLOW_GPU_SYNC=1 every
//     launch synchronises, is timed, and is logged to stderr, so a fault
//     names its kernel.
//   - Backend (backend.go): the backend.Backend of the pipeline. AllPairs
//     runs the floyd-warshall family (floyd_warshall.go); PrepareAllPairs
//     splits a run into upload, Compute (event-timed) and Matrix (download)
//     for benchmarks. SingleSource and MultiSource return ErrNotSupported
//     for now.
//
// Adding a GPU algorithm (for example single-source shortest paths): write
// kernels/<name>.cu, run go generate ./kernels, then in a new file here
// open nothing new: take the Backend's Device, upload the graph with
// Ctx.UploadCSR inside Device.Do, allocate outputs with Ctx.Alloc, launch
// the generated wrappers with shapes from launch.go, time with Ctx.NewTimer,
// and copy results back with Ctx.CopyInt32FromDevice.
//
// Distances on the GPU are int32 with graph.Inf32 as infinity. A graph
// whose distances might not fit (graph.FitsInt32Distances, and with negative
// arcs twice the distance bound, see ErrNeedsInt64) is refused with an error
// wrapping ErrNeedsInt64, which callers answer by running on the CPU: the
// backend never returns a wrong answer.
package gpu
