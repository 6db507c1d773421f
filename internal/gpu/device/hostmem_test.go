package device

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

const meminfoSample = `MemTotal:       131899748 kB
MemFree:         9520704 kB
MemAvailable:   120155360 kB
Buffers:          918412 kB
Cached:         108331852 kB
SwapCached:            0 kB
Active:         31516868 kB
HugePages_Total:       0
Hugepagesize:       2048 kB
`

func memAvailable(text string) int64 {
	return parseMemAvailable(bufio.NewScanner(strings.NewReader(text)))
}

func TestParseMemAvailable(t *testing.T) {
	if got, want := memAvailable(meminfoSample), int64(120155360)*1024; got != want {
		t.Errorf("sample meminfo: %d, want %d", got, want)
	}
	// Not the first line, no trailing newline, tabs.
	if got := memAvailable("MemTotal: 8 kB\nMemAvailable:\t3 kB"); got != 3<<10 {
		t.Errorf("3 kB: %d, want %d", got, 3<<10)
	}
	for name, text := range map[string]string{
		"empty":        "",
		"missing line": strings.Replace(meminfoSample, "MemAvailable:", "MemAvail:", 1),
		"prefix only":  "MemAvailableX: 5 kB\n",
		"not a number": "MemAvailable: lots kB\n",
		"no unit":      "MemAvailable: 120155360\n",
		"other unit":   "MemAvailable: 120155360 MB\n",
		"extra field":  "MemAvailable: 1 2 kB\n",
		"no value":     "MemAvailable:\n",
		"fraction":     "MemAvailable: 1.5 kB\n",
		"beyond int64": "MemAvailable: 99999999999999999999 kB\n",
	} {
		if got := memAvailable(text); got != 0 {
			t.Errorf("%s: %d, want 0", name, got)
		}
	}
	// Values that parse as integers but are no memory size must not read
	// as one either.
	for name, text := range map[string]string{
		"negative":            "MemAvailable: -5 kB\n",
		"<<10 wraps negative": "MemAvailable: 9223372036854775807 kB\n",
		"<<10 wraps to 1 KiB": "MemAvailable: 18014398509481985 kB\n",
	} {
		if got := memAvailable(text); got != 0 {
			t.Errorf("%s: %q gives %d, want 0", name, strings.TrimSpace(text), got)
		}
	}
}

func TestHostAvailable(t *testing.T) {
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("no /proc/meminfo")
	}
	if got := HostAvailable(); got <= 0 || got%1024 != 0 {
		t.Fatalf("HostAvailable() = %d, want a positive count of whole KiB", got)
	}
}
