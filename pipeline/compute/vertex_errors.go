package compute

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/pipeline/input"
)

// cycleError is a backend's negative-cycle error restated in the input's
// ids: the backends only know dense ids.
type cycleError struct {
	vertex string // the vertex on the cycle, described
	cycle  string // the cycle in input ids, "" when the backend gave none
	err    error
}

func (e *cycleError) Error() string {
	msg := "negative cycle through " + e.vertex + ": shortest paths are undefined"
	if e.cycle != "" {
		msg += "; the cycle in input ids: " + e.cycle
	}
	return msg
}

func (e *cycleError) Unwrap() error { return e.err }

// maxCycleShown bounds the vertices a cycle message lists.
const maxCycleShown = 8

// nameCycleVertex wraps a backend's negative-cycle error so that its
// message names the vertices by their input ids; other errors pass
// unchanged.
func nameCycleVertex(err error, ids *input.VertexIDs) error {
	var cycleErr *backend.NegativeCycleError
	if !errors.As(err, &cycleErr) {
		return err
	}
	out := &cycleError{vertex: ids.Describe(cycleErr.Vertex), err: err}
	if cycle := cycleErr.Cycle; len(cycle) > 0 {
		var b strings.Builder
		for i, v := range cycle[:min(len(cycle), maxCycleShown)] {
			fmt.Fprintf(&b, "%d -> ", ids.Original(v))
			if i == maxCycleShown-1 && len(cycle) > maxCycleShown {
				fmt.Fprintf(&b, "... (%d vertices) -> ", len(cycle))
			}
		}
		fmt.Fprintf(&b, "%d", ids.Original(cycle[0]))
		out.cycle = b.String()
	}
	return out
}
