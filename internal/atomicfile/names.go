package atomicfile

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Kinds of temporaries, the word after the final name in a temporary's
// name.
const (
	kindTemp = "tmp" // an attempt's file or folder, not yet committed
	kindOld  = "old" // a replaced output, moved aside until it is removed
)

// PartialSuffix ends the name of every file created inside an uncommitted
// Dir, so that no glob for a final extension (*.parquet) can pick it up
// before Commit renames it.
const PartialSuffix = ".partial"

// tempPattern is the os.CreateTemp / os.MkdirTemp pattern of a temporary
// for the final name base: ".<base>.<kind>-<pid>-<host>-<random>". The pid
// and host let a later run tell whether the writer still lives.
func tempPattern(base, kind string) string {
	return fmt.Sprintf(".%s.%s-%d-%s-*", base, kind, os.Getpid(), hostTag())
}

// owner is the process that made a temporary, read back from its name.
type owner struct {
	pid  int
	host string
}

// parseTemp reports whether name is a temporary of the final name base and
// which process made it.
func parseTemp(name, base string) (owner, bool) {
	for _, kind := range []string{kindTemp, kindOld} {
		rest, ok := strings.CutPrefix(name, "."+base+"."+kind+"-")
		if !ok {
			continue
		}
		fields := strings.Split(rest, "-")
		if len(fields) != 3 {
			return owner{}, false
		}
		pid, err := strconv.Atoi(fields[0])
		if err != nil || pid <= 0 {
			return owner{}, false
		}
		return owner{pid: pid, host: fields[1]}, true
	}
	return owner{}, false
}

// hostTag is this machine's host name with every character but letters,
// digits and dots replaced by '_', so that '-' only separates the fields of
// a temporary's name.
var hostTag = sync.OnceValue(func() string {
	name, err := os.Hostname()
	if err != nil || name == "" {
		name = "unknown"
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.':
			return r
		}
		return '_'
	}, name)
})

// IsTemporary reports whether name (a base name) is a temporary this
// package makes, ".<final>.tmp-<pid>-<host>-<random>" or its ".old-" form,
// for whatever final name: what a writer may leave beside an output while
// it runs or after it died.
func IsTemporary(name string) bool {
	if !strings.HasPrefix(name, ".") {
		return false
	}
	for _, kind := range []string{kindTemp, kindOld} {
		marker := "." + kind + "-"
		for i := 1; i < len(name); i++ {
			j := strings.Index(name[i:], marker)
			if j < 0 {
				break
			}
			if _, ok := parseTemp(name, name[1:i+j]); ok {
				return true
			}
			i += j
		}
	}
	return false
}
