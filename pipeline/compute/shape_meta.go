package compute

import (
	"strconv"
	"strings"

	"github.com/pathflow/pathflow/internal/results"
)

// targetsMeta is the pathflow.targets metadata value: "all", or the
// target ids in output order, comma-separated.
func targetsMeta(targets []int32) string {
	if targets == nil {
		return "all"
	}
	var b strings.Builder
	for i, t := range targets {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(t)))
	}
	return b.String()
}

// maxDistanceMeta is the pathflow.max_distance metadata value: "none" or
// the cutoff.
func maxDistanceMeta(cutoff int64) string {
	if cutoff == results.NoCutoff {
		return "none"
	}
	return strconv.FormatInt(cutoff, 10)
}
