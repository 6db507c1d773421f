// Package osmroadstest finds the real OpenStreetMap extracts that the
// module github.com/paulmach/osm ships in its testdata, for tests and
// benchmarks: delaware-latest.osm.pbf (the US state of Delaware, 2016) and
// andorra-latest.osm.bz2. They are the datasets delaware-osm and
// andorra-osm, found as every run finds them (datasets.Fetcher: the
// mirror folder, the cache, then the Go module cache that `go mod
// download` fills), never downloaded here and never copied into this
// repository.
//
// The data is (c) OpenStreetMap contributors, available under the Open
// Database License (ODbL).
package osmroadstest

import (
	"context"
	"testing"

	"github.com/pathflow/pathflow/datasets"
)

// The extracts, by their dataset names.
const (
	Delaware = "delaware-osm"
	Andorra  = "andorra-osm"
)

// Path returns the path of the extract of the dataset name, or "" when it
// is nowhere on this machine.
func Path(name string) string {
	d, err := datasets.Lookup(name)
	if err != nil {
		return ""
	}
	path, err := (&datasets.Fetcher{Offline: true}).Locate(context.Background(), d.Graph)
	if err != nil {
		return ""
	}
	return path
}

// Extract returns the path of the extract of the dataset name, skipping
// tb, saying why, where it is absent.
func Extract(tb testing.TB, name string) string {
	tb.Helper()
	path := Path(name)
	if path == "" {
		tb.Skipf("dataset %s not found: github.com/paulmach/osm is not in the module cache (run go mod download)", name)
	}
	return path
}
