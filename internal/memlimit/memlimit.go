package memlimit

import (
	"fmt"
	"math"
)

// Limit is one bound on the memory the process can still allocate.
type Limit struct {
	// Name says which bound it is and where it was read, e.g.
	// "RLIMIT_AS (ulimit -v)" or "cgroup memory.max of /sys/fs/cgroup/job".
	Name string
	// Total is the bound itself (the cgroup's limit, the rlimit, the
	// machine's MemAvailable), in bytes.
	Total int64
	// Free is what is left of Total for new allocations, in bytes.
	Free int64
}

// String renders l for an error message: "4.1 GiB left under RLIMIT_AS
// (ulimit -v) of 5.7 GiB".
func (l Limit) String() string {
	if l.Free == l.Total {
		return fmt.Sprintf("%s left (%s)", GiB(l.Free), l.Name)
	}
	return fmt.Sprintf("%s left under %s of %s", GiB(l.Free), l.Name, GiB(l.Total))
}

// Available returns the tightest of the bounds this machine reports, and
// false when it reports none (a non-Linux system, or no /proc).
func Available() (Limit, bool) {
	return tightest(limits(hostFS()))
}

// tightest returns the limit with the least free memory.
func tightest(ls []Limit) (Limit, bool) {
	if len(ls) == 0 {
		return Limit{}, false
	}
	best := ls[0]
	for _, l := range ls[1:] {
		if l.Free < best.Free {
			best = l
		}
	}
	return best, true
}

// GiB renders a byte count in GiB with one decimal ("11.2 GiB"), or in MiB
// below 1 GiB.
func GiB(bytes int64) string {
	if bytes < 1<<30 {
		return fmt.Sprintf("%.0f MiB", math.Ceil(float64(bytes)/(1<<20)))
	}
	return fmt.Sprintf("%.1f GiB", float64(bytes)/(1<<30))
}

// OOMKills returns how many processes the kernel's out-of-memory killer
// has ended, on this machine and in this process's cgroup together: a
// count that grows while a child runs says that a SIGKILL it died of came
// from that killer rather than from a person or another program. ok is
// false where no count can be read (outside Linux, or with /proc hidden).
func OOMKills() (n int64, ok bool) { return oomKills(hostFS()) }
