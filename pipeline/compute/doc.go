// Package compute is the compute stage (Run): it loads the graph through
// package input, plans the run (algorithm, variant and backend, from a
// stored contraction hierarchy where one applies), checks memory, runs it
// on a backend and commits distances, parents, paths and summaries
// through package output. A sharded run computes one block of sources
// into a shared dataset that Finalize completes. It owns its Config and
// keys (Keys, ConfigFrom).
package compute
