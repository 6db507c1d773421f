// Package memlimit tells how much memory a process can still take before
// an allocation fails or the kernel kills it: the least of the memory the
// machine has available (MemAvailable of /proc/meminfo), what the
// process's cgroup allows beyond what it uses (cgroup v2 memory.max, v1
// memory.limit_in_bytes, every ancestor included) and the address space
// RLIMIT_AS (ulimit -v) leaves beyond the process's own. A cgroup's use is
// its working set, as kubelet counts it: its usage less the inactive page
// cache (inactive_file of memory.stat, v1 total_inactive_file), which the
// kernel reclaims before the limit is reached; a run that has just read a
// large input under a Kubernetes or Slurm limit is not refused for the
// cache of it.
//
// A command that can tell the memory a run needs from its input's
// declared sizes checks it against Available before allocating, so a
// header that claims far more than the machine holds ends as a clear error
// instead of Go's "fatal error: out of memory" or the kernel's OOM killer.
// The figures are a snapshot: other processes may take memory after it.
//
// Outside Linux nothing is known and Available reports no limit.
package memlimit
