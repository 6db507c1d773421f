// Package pipeline is the home of pathflow's two stages and what they
// share; it holds no code of its own. The sub-packages, lowest first:
//
//   - stageerr: the kinds of errors the stages return (input, compute,
//     output, ...), which the commands map to exit codes.
//   - runlog: the logging keys and the progress lines of long stages.
//   - output: the committer (a run's output replaces a folder in one
//     rename, never a foreign one nor one the run reads), the manifests and
//     the output keys both stages share.
//   - input: loading a graph from any input (a file, a dataset, a
//     generator, an ingest output verified against its manifest, its
//     reload file), the input keys, vertex ids and memory checks.
//   - ingest: the ingest stage (Run), which writes a graph's tables, its
//     reload file and, for road-like graphs, a contraction hierarchy.
//   - compute: the compute stage (Run): its keys, planning, the run on a
//     backend, the stored hierarchy's use, shards and finalize.
//
// Imports run downward only: compute and ingest use input, output,
// runlog and stageerr, and none of them this package; the commands (cmd/internal/cli) use the stages.
// docs/architecture.md follows a compute run from its config to its
// commit.
package pipeline
