package gputest

import (
	"errors"
	"fmt"
	"os"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/graph"
)

// Gnutella weighting, the datasets README's rule for comparing tools.
const (
	HashSeed = 42
	HashLo   = 1
	HashHi   = 100
)

// ReadSNAP reads a directed SNAP edge list with the hash weights (seed 42,
// weights 1..100).
func ReadSNAP(path string) (_ *graph.EdgeList, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gputest: %w", err)
	}
	defer func() {
		if cerr := f.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("gputest: %w", cerr))
		}
	}()
	e, _, err := formats.ReadSNAP(f, path, formats.SNAPOptions{
		Directed: true, Weighting: formats.WeightHash, Lo: HashLo, Hi: HashHi, Seed: HashSeed,
	})
	return e, err
}
