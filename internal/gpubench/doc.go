// Package gpubench measures the GPU backend: the fw subcommand times the
// floyd-warshall variants on a generated Erdos-Renyi graph or a SNAP file,
// with CUDA events, median of repeats after warm-up, validates every result
// (every row against another variant's, sampled rows against CPU
// Dijkstra), relates the rate, n^3 relaxations per second, to the device's
// own add-min ceiling measured by a register-only kernel (the ceiling
// subcommand alone), and measures how fast the rows stream to the host
// through pinned blocks to a sink that releases them at once (GB/s, to
// compare with the bus's page-locked device-to-host rate). The sssp
// subcommand times the single-source variants (see SSSPConfig).
//
// cmd/gpubench wires it and hands it the graph readers (GraphFiles), so that
// this package, like the backend it measures, lies below package formats.
// New subcommands add a Command to Commands.
// Without the cuda build tag every subcommand returns gpu.ErrNoCUDA.
package gpubench
