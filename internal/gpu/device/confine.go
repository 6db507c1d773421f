package device

import (
	"strconv"
	"strings"
)

// VisibleDevicesEnv is the variable through which the CUDA driver hides
// GPUs from a process: a comma-separated list of device indices (or
// UUIDs), read once, when the driver starts.
const VisibleDevicesEnv = "CUDA_VISIBLE_DEVICES"

// confinement is what a process that will use only some GPUs sets
// VisibleDevicesEnv to, and how the ordinals it names them by map onto the
// driver's, which count the visible devices only.
type confinement struct {
	// value is VisibleDevicesEnv's new value.
	value string
	// driver[ordinal] is the driver's ordinal of the process's ordinal.
	driver map[int]int
	// ordinals[i] is the process's ordinal of the driver's ordinal i.
	ordinals []int
}

// confineTo works out the confinement to ordinals (a process's device
// numbers, those of every device the driver would show: current, when
// set, already hides some) keeping each once, in the order first listed.
// ok is false when there is nothing to confine: no ordinals, or a current
// list that is empty or too short for one of them (the driver then
// reports the missing device as it would without a confinement).
//
// The driver starts every device it can see, about 0.2 s each for a
// 141 GB H200 (measured on a host of two: 0.46-0.56 s to the first
// context with both visible, 0.23-0.25 s with one), so a run told which
// devices it uses starts in the time of those alone.
func confineTo(ordinals []int, current string, set bool) (c confinement, ok bool) {
	if len(ordinals) == 0 {
		return confinement{}, false
	}
	var entries []string
	if set {
		if strings.TrimSpace(current) == "" {
			return confinement{}, false
		}
		entries = strings.Split(current, ",")
	}
	c.driver = make(map[int]int, len(ordinals))
	var names []string
	for _, o := range ordinals {
		if _, seen := c.driver[o]; seen {
			continue
		}
		if o < 0 || (set && o >= len(entries)) {
			return confinement{}, false
		}
		name := strconv.Itoa(o)
		if set {
			name = strings.TrimSpace(entries[o])
		}
		c.driver[o] = len(c.ordinals)
		c.ordinals = append(c.ordinals, o)
		names = append(names, name)
	}
	c.value = strings.Join(names, ",")
	return c, true
}
