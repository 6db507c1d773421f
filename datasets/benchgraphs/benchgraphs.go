// Package benchgraphs reads the real graphs that the GPU tests and
// cmd/gpubench measure against, the way the datasets README compares tools:
// SNAP edge lists directed, each arc weighted by a hash of its ends (seed
// 42, weights 1..100), DIMACS .gr files as they are. It sits above package
// formats, so that the backend and its test helpers (internal/gpu/...),
// which lie below it, take graphs already read.
package benchgraphs

import (
	"errors"
	"fmt"
	"os"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/graph"
)

// The hash weighting of SNAP edge lists, the datasets README's rule for
// comparing tools.
const (
	HashSeed = 42
	HashLo   = 1
	HashHi   = 100
)

// SNAPWeights describes the weights ReadSNAP gives, for reports.
var SNAPWeights = fmt.Sprintf("hash weights seed %d, %d..%d", HashSeed, HashLo, HashHi)

// ReadSNAP reads a directed SNAP edge list, plain or gzip-compressed, with
// the hash weights.
func ReadSNAP(path string) (*graph.EdgeList, error) {
	var e *graph.EdgeList
	err := readFile(path, func(f *os.File) (err error) {
		e, _, err = formats.ReadSNAP(f, path, formats.SNAPOptions{
			Directed: true, Weighting: formats.WeightHash, Lo: HashLo, Hi: HashHi, Seed: HashSeed,
		})
		return err
	})
	return e, err
}

// ReadDIMACS reads a DIMACS .gr file, gzip-compressed or not.
func ReadDIMACS(path string) (*graph.EdgeList, error) {
	var e *graph.EdgeList
	err := readFile(path, func(f *os.File) (err error) {
		e, err = formats.ReadDIMACS(f, path)
		return err
	})
	return e, err
}

// readFile opens path, hands it to read and closes it.
func readFile(path string, read func(*os.File) error) (err error) {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, f.Close()) }()
	return read(f)
}
