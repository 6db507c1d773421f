package atomicfile

import (
	"os"
	"strconv"
	"strings"
	"sync"
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
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	// The command name, field 2, is in parentheses and may hold spaces
	// and parentheses itself: the fields after it follow the last ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return "", false
	}
	fields := strings.Fields(string(b[i+1:]))
	const startField = 22 - 3 // fields 1 and 2 are before the ')'
	if len(fields) <= startField {
		return "", false
	}
	return fields[startField], true
}
