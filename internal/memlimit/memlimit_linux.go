package memlimit

import (
	"bufio"
	"bytes"
	"io/fs"
	"math"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
)

// hostFS is the root file system, where /proc and /sys are read.
func hostFS() fs.FS { return os.DirFS("/") }

// limits returns every bound found under root (a file system rooted at
// "/"); the address-space bound comes from the process itself.
func limits(root fs.FS) []Limit {
	var ls []Limit
	if l, ok := memAvailable(root); ok {
		ls = append(ls, l)
	}
	ls = append(ls, cgroupLimits(root)...)
	if l, ok := addressSpace(root); ok {
		ls = append(ls, l)
	}
	return ls
}

// memAvailable reads MemAvailable from proc/meminfo.
func memAvailable(root fs.FS) (Limit, bool) {
	b, err := fs.ReadFile(root, "proc/meminfo")
	if err != nil {
		return Limit{}, false
	}
	kb, ok := kBField(b, "MemAvailable:")
	if !ok {
		return Limit{}, false
	}
	return Limit{Name: "MemAvailable of /proc/meminfo", Total: kb, Free: kb}, true
}

// kBField returns the value of the "KEY: N kB" line of a /proc listing in
// bytes.
func kBField(b []byte, key string) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), key)
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb < 0 || kb > math.MaxInt64>>10 {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}

// addressSpace is what RLIMIT_AS leaves beyond the process's current
// virtual size (VmSize of proc/self/status).
func addressSpace(root fs.FS) (Limit, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur > math.MaxInt64 { // RLIM_INFINITY is all ones
		return Limit{}, false
	}
	total := int64(rl.Cur)
	used := int64(0)
	if b, err := fs.ReadFile(root, "proc/self/status"); err == nil {
		used, _ = kBField(b, "VmSize:")
	}
	return Limit{Name: "RLIMIT_AS (ulimit -v)", Total: total, Free: max(total-used, 0)}, true
}

// cgroupLimits returns the memory bound of the process's cgroup and of
// each ancestor that sets one, v2 or v1, as proc/self/cgroup names them.
// What a cgroup uses is counted as kubelet counts its working set: its
// usage less the page cache the kernel reclaims before it kills
// (inactive_file), such as that of the input file just read.
func cgroupLimits(root fs.FS) []Limit {
	b, err := fs.ReadFile(root, "proc/self/cgroup")
	if err != nil {
		return nil
	}
	var ls []Limit
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// "0::/path" (v2) or "7:memory:/path" (v1, controllers may be
		// listed together: "4:cpu,memory:/path").
		f := strings.SplitN(sc.Text(), ":", 3)
		if len(f) != 3 {
			continue
		}
		switch {
		case f[0] == "0" && f[1] == "":
			ls = append(ls, cgroupWalk(root, "sys/fs/cgroup", f[2], cgroupV2)...)
		case hasController(f[1], "memory"):
			ls = append(ls, cgroupWalk(root, "sys/fs/cgroup/memory", f[2], cgroupV1)...)
		}
	}
	return ls
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// cgroupFiles names the files of one cgroup version's memory controller.
type cgroupFiles struct {
	limit, usage string // the limit and the usage, one number each
	// inactive is the key, in memory.stat, of the inactive page cache,
	// which the kernel reclaims before the limit is reached.
	inactive string
	what     string // the limit's name in Limit.Name
}

var (
	cgroupV2 = cgroupFiles{limit: "memory.max", usage: "memory.current", inactive: "inactive_file", what: "cgroup memory.max"}
	cgroupV1 = cgroupFiles{limit: "memory.limit_in_bytes", usage: "memory.usage_in_bytes", inactive: "total_inactive_file", what: "cgroup memory.limit_in_bytes"}
)

// cgroupWalk reads the limit and usage files of the cgroup at rel under
// mount and of each ancestor up to the mount. In a cgroup namespace the
// path may be "/" or not exist under the mount; the mount's own files are
// then those of the process's cgroup.
func cgroupWalk(root fs.FS, mount, rel string, files cgroupFiles) []Limit {
	var ls []Limit
	dir := path.Join(mount, path.Clean("/"+rel))
	for {
		if l, ok := cgroupLimit(root, dir, files); ok {
			ls = append(ls, l)
		}
		if dir == mount {
			return ls
		}
		dir = path.Dir(dir)
	}
}

// unlimitedV1 is above any real limit: cgroup v1 reports "no limit" as
// the largest page-aligned int64 (9223372036854771712).
const unlimitedV1 = 1 << 62

// cgroupLimit reads the bound of the cgroup at dir: its limit, and as
// free what its working set (usage less inactive page cache) leaves.
func cgroupLimit(root fs.FS, dir string, files cgroupFiles) (Limit, bool) {
	b, err := fs.ReadFile(root, path.Join(dir, files.limit))
	if err != nil {
		return Limit{}, false
	}
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return Limit{}, false
	}
	total, err := strconv.ParseInt(s, 10, 64)
	if err != nil || total < 0 || total >= unlimitedV1 {
		return Limit{}, false
	}
	used := int64(0)
	if b, err := fs.ReadFile(root, path.Join(dir, files.usage)); err == nil {
		used, _ = strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	}
	if b, err := fs.ReadFile(root, path.Join(dir, "memory.stat")); err == nil {
		if inactive, ok := statField(b, files.inactive); ok {
			used = max(used-inactive, 0)
		}
	}
	return Limit{Name: files.what + " of /" + dir, Total: total, Free: max(total-used, 0)}, true
}

// statField returns the value of the "KEY N" line of a cgroup's
// memory.stat.
func statField(b []byte, key string) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 || f[0] != key {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		return n, err == nil && n >= 0
	}
	return 0, false
}
