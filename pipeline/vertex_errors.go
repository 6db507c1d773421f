package pipeline

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
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

// nameCycleVertex wraps a negative-cycle error from a backend so that its
// message names the vertices by their input ids; other errors pass
// unchanged.
func nameCycleVertex(err error, ids *VertexIDs) error {
	cycleErr, ok := findCycleError(err)
	if !ok {
		return err
	}
	out := &cycleError{vertex: ids.Describe(int32(cycleErr.FieldByName("Vertex").Int())), err: err}
	if c := cycleErr.FieldByName("Cycle"); c.IsValid() && c.Type() == reflect.TypeFor[[]int32]() && c.Len() > 0 {
		cycle := c.Interface().([]int32)
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

// findCycleError finds a negative-cycle error in err's chain and returns
// its struct. The CPU and GPU backends each declare a NegativeCycleError
// with an int32 Vertex field (the CPU's also lists the Cycle); the
// pipeline matches them by that shape because importing the GPU package
// would link CUDA into every command that imports the pipeline.
func findCycleError(err error) (reflect.Value, bool) {
	for ; err != nil; err = errors.Unwrap(err) {
		rv := reflect.ValueOf(err)
		if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
			continue
		}
		s := rv.Elem()
		if f := s.FieldByName("Vertex"); s.Type().Name() == "NegativeCycleError" && f.IsValid() && f.Kind() == reflect.Int32 {
			return s, true
		}
	}
	return reflect.Value{}, false
}
