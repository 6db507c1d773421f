package gputest

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/paths"
)

// CompareDistances checks t's distances against want (int64 with
// paths.Unreachable) and reports the first difference.
func CompareDistances(t *paths.Tree, want []int64) error {
	if len(t.Dist) != len(want) {
		return fmt.Errorf("row %d: %d distances, want %d", t.Source, len(t.Dist), len(want))
	}
	for v := range want {
		if t.Dist[v] != want[v] {
			return fmt.Errorf("dist[%d][%d] = %s, want %s", t.Source, v, show(t.Dist[v]), show(want[v]))
		}
	}
	return nil
}

func show(d int64) string {
	if d == paths.Unreachable {
		return "unreachable"
	}
	return fmt.Sprint(d)
}
