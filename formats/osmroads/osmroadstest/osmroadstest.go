// Package osmroadstest finds the real OpenStreetMap extracts that the
// module github.com/paulmach/osm ships in its testdata, for tests and
// benchmarks: delaware-latest.osm.pbf (the US state of Delaware, 2016) and
// andorra-latest.osm.bz2. They are never copied into this repository; `go
// mod download` brings them into the module cache.
//
// The data is (c) OpenStreetMap contributors, available under the Open
// Database License (ODbL).
package osmroadstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The extracts of the module's testdata.
const (
	Delaware = "delaware-latest.osm.pbf"
	Andorra  = "andorra-latest.osm.bz2"
)

var moduleDir = sync.OnceValue(func() string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/paulmach/osm").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// Path returns the path of the extract name, or "" when the module is not
// in the cache.
func Path(name string) string {
	dir := moduleDir()
	if dir == "" {
		return ""
	}
	path := filepath.Join(dir, "testdata", name)
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	return path
}

// Extract returns the path of the extract name, skipping tb, saying why,
// where it is absent.
func Extract(tb testing.TB, name string) string {
	tb.Helper()
	path := Path(name)
	if path == "" {
		tb.Skipf("%s not found: github.com/paulmach/osm is not in the module cache (run go mod download)", name)
	}
	return path
}
