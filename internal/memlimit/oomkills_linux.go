package memlimit

import (
	"bufio"
	"bytes"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// oomKills sums the kernel's counts of processes its out-of-memory killer
// ended: machine-wide (oom_kill of proc/vmstat, Linux 4.13 on) and in the
// process's own cgroup (oom_kill of memory.events in v2, which counts the
// cgroup's processes killed by any out-of-memory killer, or of
// memory.oom_control in v1). ok is false when no count can be read.
func oomKills(root fs.FS) (n int64, ok bool) {
	if b, err := fs.ReadFile(root, "proc/vmstat"); err == nil {
		if v, found := spaceField(b, "oom_kill"); found {
			n, ok = n+v, true
		}
	}
	b, err := fs.ReadFile(root, "proc/self/cgroup")
	if err != nil {
		return n, ok
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), ":", 3)
		if len(f) != 3 {
			continue
		}
		var file string
		switch {
		case f[0] == "0" && f[1] == "":
			file = path.Join("sys/fs/cgroup", path.Clean("/"+f[2]), "memory.events")
		case hasController(f[1], "memory"):
			file = path.Join("sys/fs/cgroup/memory", path.Clean("/"+f[2]), "memory.oom_control")
		default:
			continue
		}
		if b, err := fs.ReadFile(root, file); err == nil {
			if v, found := spaceField(b, "oom_kill"); found {
				n, ok = n+v, true
			}
		}
	}
	return n, ok
}

// spaceField returns the value of the "KEY N" line of a kernel listing.
func spaceField(b []byte, key string) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == key {
			v, err := strconv.ParseInt(f[1], 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}
