package memlimit

import (
	"strings"
	"testing"
	"testing/fstest"
)

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func TestCgroupV2WalksAncestors(t *testing.T) {
	root := fstest.MapFS{
		"proc/self/cgroup":                        file("0::/job/step\n"),
		"sys/fs/cgroup/job/step/memory.max":       file("max\n"),
		"sys/fs/cgroup/job/step/memory.current":   file("100\n"),
		"sys/fs/cgroup/job/memory.max":            file("8000\n"),
		"sys/fs/cgroup/job/memory.current":        file("3000\n"),
		"sys/fs/cgroup/memory.max":                file("1000000\n"),
		"sys/fs/cgroup/memory.current":            file("10\n"),
		"proc/meminfo":                            file("MemTotal: 100 kB\nMemAvailable:     50 kB\n"),
		"sys/fs/cgroup/memory/memory.limit_bytes": file("1\n"), // not a file the v2 walk reads
	}
	ls := limits(root)
	got, ok := tightest(ls)
	if !ok || got.Free != 5000 || got.Total != 8000 || !strings.Contains(got.Name, "memory.max of /sys/fs/cgroup/job") {
		t.Fatalf("tightest of %+v = %+v, want the job's 5000 of 8000", ls, got)
	}
}

// TestCgroupV2LeavesReclaimablePageCache: what a cgroup uses is counted
// as its working set, memory.current less inactive_file of memory.stat,
// since the kernel reclaims that page cache (such as the input file just
// read) before the limit is reached.
func TestCgroupV2LeavesReclaimablePageCache(t *testing.T) {
	root := fstest.MapFS{
		"proc/self/cgroup":                           file("0::/kubepods/pod1\n"),
		"sys/fs/cgroup/kubepods/pod1/memory.max":     file("8000\n"),
		"sys/fs/cgroup/kubepods/pod1/memory.current": file("7000\n"),
		"sys/fs/cgroup/kubepods/pod1/memory.stat":    file("anon 2000\nfile 5000\nactive_file 1000\ninactive_file 4000\n"),
		"sys/fs/cgroup/kubepods/memory.max":          file("100000\n"),
		"sys/fs/cgroup/kubepods/memory.current":      file("99000\n"),
		"sys/fs/cgroup/kubepods/memory.stat":         file("inactive_file 200000\n"), // more than its usage
	}
	ls := limits(root)
	got, ok := tightest(ls)
	if !ok || got.Free != 5000 || got.Total != 8000 || !strings.Contains(got.Name, "memory.max of /sys/fs/cgroup/kubepods/pod1") {
		t.Fatalf("tightest of %+v = %+v, want the pod's 5000 of 8000 (7000 used, 4000 of it reclaimable)", ls, got)
	}
	for _, l := range ls {
		if strings.HasSuffix(l.Name, "/sys/fs/cgroup/kubepods") && l.Free != l.Total {
			t.Errorf("%+v: inactive_file beyond the usage leaves %d free, want all %d", l, l.Free, l.Total)
		}
	}
}

func TestCgroupV1(t *testing.T) {
	root := fstest.MapFS{
		"proc/self/cgroup": file("4:memory:/slurm/uid_1/job_7\n1:cpu,cpuacct:/\n"),
		"sys/fs/cgroup/memory/slurm/uid_1/job_7/memory.limit_in_bytes": file("4096\n"),
		"sys/fs/cgroup/memory/slurm/uid_1/job_7/memory.usage_in_bytes": file("1024\n"),
		"sys/fs/cgroup/memory/memory.limit_in_bytes":                   file("9223372036854771712\n"), // no limit
		"proc/meminfo": file("MemAvailable: 1000000 kB\n"),
	}
	got, ok := tightest(limits(root))
	if !ok || got.Free != 3072 || got.Total != 4096 || !strings.Contains(got.Name, "limit_in_bytes") {
		t.Fatalf("got %+v, want 3072 free of the job's 4096", got)
	}

	// v1's memory.stat counts the job's own inactive page cache
	// (inactive_file) and that of the job with its descendants
	// (total_inactive_file), which its usage includes.
	root["sys/fs/cgroup/memory/slurm/uid_1/job_7/memory.usage_in_bytes"] = file("3072\n")
	root["sys/fs/cgroup/memory/slurm/uid_1/job_7/memory.stat"] = file("cache 2500\ninactive_file 100\ntotal_cache 2500\ntotal_inactive_file 2048\n")
	got, ok = tightest(limits(root))
	if !ok || got.Free != 3072 || got.Total != 4096 {
		t.Fatalf("got %+v, want 3072 free of the job's 4096 (3072 used, 2048 of it reclaimable)", got)
	}
}

func TestMemAvailableAlone(t *testing.T) {
	root := fstest.MapFS{"proc/meminfo": file("MemTotal: 100 kB\nMemAvailable: 64 kB\n")}
	got, ok := tightest(limits(root))
	if !ok || got.Free != 64<<10 || got.Name != "MemAvailable of /proc/meminfo" {
		t.Fatalf("got %+v, %v", got, ok)
	}
	if l, ok := memAvailable(fstest.MapFS{"proc/meminfo": file("MemAvailable: lots kB\n")}); ok {
		t.Fatalf("a malformed MemAvailable gave %+v", l)
	}
}

func TestAvailableHere(t *testing.T) {
	l, ok := Available()
	if !ok {
		t.Skip("no bound known here")
	}
	if l.Free <= 0 || l.Free > l.Total || l.Name == "" {
		t.Fatalf("Available() = %+v", l)
	}
}

func TestString(t *testing.T) {
	l := Limit{Name: "RLIMIT_AS (ulimit -v)", Total: 6 << 30, Free: 5<<30 + 1<<29}
	if got, want := l.String(), "5.5 GiB left under RLIMIT_AS (ulimit -v) of 6.0 GiB"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := GiB(3 << 20); got != "3 MiB" {
		t.Errorf("GiB(3 MiB) = %q", got)
	}
}

func TestOOMKills(t *testing.T) {
	root := fstest.MapFS{
		"proc/vmstat":                          file("pgfault 10\noom_kill 3\nnr_free_pages 1\n"),
		"proc/self/cgroup":                     file("0::/job/task\n"),
		"sys/fs/cgroup/job/task/memory.events": file("low 0\nhigh 0\nmax 4\noom 2\noom_kill 2\n"),
	}
	if n, ok := oomKills(root); !ok || n != 5 {
		t.Errorf("oomKills = %d, %v; want 5 (3 on the machine, 2 in the cgroup)", n, ok)
	}
	v1 := fstest.MapFS{
		"proc/self/cgroup": file("4:cpu,memory:/slurm/job7\n"),
		"sys/fs/cgroup/memory/slurm/job7/memory.oom_control": file("oom_kill_disable 0\nunder_oom 0\noom_kill 1\n"),
	}
	if n, ok := oomKills(v1); !ok || n != 1 {
		t.Errorf("v1: oomKills = %d, %v; want 1", n, ok)
	}
	if _, ok := oomKills(fstest.MapFS{}); ok {
		t.Error("a machine with no counts reported one")
	}
}
