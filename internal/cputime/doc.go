// Package cputime reads the CPU time the process has used, all threads
// together, which benchmarks report beside the wall time: on a shared
// machine it shows the work done, which other load does not inflate.
package cputime
