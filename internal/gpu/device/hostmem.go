package device

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
)

// HostAvailable is the host memory available to a new allocation, in
// bytes (MemAvailable of /proc/meminfo), or 0 where that is not known.
func HostAvailable() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	return parseMemAvailable(bufio.NewScanner(f))
}

// parseMemAvailable reads the MemAvailable line ("MemAvailable: 123 kB")
// of a meminfo listing, or returns 0.
func parseMemAvailable(sc *bufio.Scanner) int64 {
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb < 0 || kb > math.MaxInt64>>10 {
			return 0
		}
		return kb << 10
	}
	return 0
}
