// Package planner decides, on the host and before any device is opened,
// what a compute run will do: which backend (compute.backend auto, cpu or
// gpu, with the fallbacks to the CPU), which algorithm auto stands for on
// each backend, when a stored contraction hierarchy answers the query, and
// how a sharded all-pairs run adapts its algorithm.
//
// Its functions are pure: they take plain facts (the graph's size and
// weight range, the rows and targets asked for, which backends are
// registered and available) and return a decision with the sentence that
// explains it, for the log and the manifest. Backends' Choose functions
// call AutoCPU and AutoGPU; the compute stage calls the rest. Nothing here
// opens a device, reads a file or logs: warnings come back as values.
package planner
