package cpu

import (
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
)

// validateTargets checks a narrowed request's targets: in range, at most
// one of the two kinds, a target list per source.
func validateTargets(n int32, req *backend.Request) error {
	if req.Targets != nil && req.SourceTargets != nil {
		return errors.New("cpu: request with both targets and per-source targets")
	}
	if req.SourceTargets != nil && len(req.SourceTargets) != len(req.Sources) {
		return fmt.Errorf("cpu: %d target lists for %d sources", len(req.SourceTargets), len(req.Sources))
	}
	check := func(targets []int32) error {
		for _, v := range targets {
			if v < 0 || v >= n {
				return fmt.Errorf("cpu: target %d outside 0..%d", v, n-1)
			}
		}
		return nil
	}
	if err := check(req.Targets); err != nil {
		return err
	}
	for _, ts := range req.SourceTargets {
		if err := check(ts); err != nil {
			return err
		}
	}
	return nil
}
