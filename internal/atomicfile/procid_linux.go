package atomicfile

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// bootID identifies this boot of the machine's kernel: a lock whose boot
// differs was written before a restart, and its pid names nothing now. In
// a container it is the host kernel's, so a container restarted on the
// same node keeps it, and processStart tells its PID 1 apart instead.
var bootID = sync.OnceValue(func() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
})

// processStart returns when process pid started, in clock ticks since
// boot (field 22 of /proc/<pid>/stat): with the pid it names one process
// of this boot, so that a pid reused by a later process (PID 1 in every
// container) is told from the lock's holder. False when pid does not run
// or /proc cannot tell.
func processStart(pid int) (string, bool) {
	fields, ok := procStat(pid)
	if !ok {
		return "", false
	}
	return fields[startField], true
}

// Fields of /proc/<pid>/stat after the command name, counted from 0
// there (fields 1 and 2 come before it): the state (field 3) and the
// start time (field 22).
const (
	stateField = 0
	startField = 22 - 3
)

// procStat returns the fields of /proc/<pid>/stat that follow the command
// name, false when pid does not run or the file cannot be read.
func procStat(pid int) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	return statFields(string(b))
}

// statFields splits the content of a /proc/<pid>/stat file after its
// command name, which is in parentheses and may hold spaces and
// parentheses itself: the fields after it follow the last ')'.
func statFields(stat string) ([]string, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return nil, false
	}
	fields := strings.Fields(stat[i+1:])
	if len(fields) <= startField {
		return nil, false
	}
	return fields, true
}

// processDead reports whether pid names a process that has exited and
// waits to be reaped (a zombie, state Z or X): one whose parent died
// without reaping it, in a container whose PID 1 reaps nothing, stays so.
func processDead(pid int) bool {
	fields, ok := procStat(pid)
	return ok && (fields[stateField] == "Z" || fields[stateField] == "X")
}

// processStartedAfter reports whether the process pid started after t, by
// its start time in clock ticks since boot (in units of 1/100 s, the
// kernel's USER_HZ) and the boot time of /proc/stat: a pid reused by a
// process born after a temporary was last written is not that
// temporary's writer. A second of margin covers the boot time's rounding.
func processStartedAfter(pid int, t time.Time) bool {
	fields, ok := procStat(pid)
	if !ok {
		return false
	}
	ticks, err := strconv.ParseInt(fields[startField], 10, 64)
	boot, bootOK := bootTime()
	if err != nil || !bootOK {
		return false
	}
	started := boot.Add(time.Duration(ticks) * time.Second / 100)
	return started.After(t.Add(time.Second))
}

// bootTime is when this machine booted (btime of /proc/stat).
var bootTime = sync.OnceValues(func() (time.Time, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}, false
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "btime "); ok {
			sec, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
			if err != nil {
				return time.Time{}, false
			}
			return time.Unix(sec, 0), true
		}
	}
	return time.Time{}, false
})
