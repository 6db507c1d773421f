// Package readertest lets tests read pathflow's output files with polars
// and Arrow JS, two of the readers analysts use, instead of with
// pathflow's own readers; internal/duckdbtest does the same for DuckDB.
//
// Both run in Node.js from packages pinned in scripts/readers
// (package.json and package-lock.json): nodejs-polars, with its Linux x64
// binary listed directly (it declares Node.js 22 although it runs on 20,
// so npm would leave it out as an optional dependency), apache-arrow, and
// the pure-JavaScript lz4js and fzstd decoders that
// scripts/readers/arrow-codecs.mjs registers with Arrow JS. Install them
// once from the module root:
//
//	npm ci --prefix scripts/readers
//
// A test reads a table and compares its values:
//
//	tab := readertest.PolarsParquet(t, filepath.Join(out, "distances", "*.parquet"), false)
//	for _, row := range tab.Rows { ... } // int64, float64, string, []any or nil
//
// Without node or that installation, Require and the readers skip the
// test with that hint, unless the environment variable duckdbtest reads
// (nodetest.RequireEnv) is 1, as in CI: then they fail it, so no reader
// can go missing as a skip. One variable requires every analyst's reader.
package readertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/nodetest"
)

// InstallHint is the command, run from the module root, that installs the
// pinned readers.
const InstallHint = "npm ci --prefix " + scriptDir

// scriptDir is the directory of the npm project, relative to the module
// root.
const scriptDir = "scripts/readers"

// readers is the npm project of read.mjs; it checks every package it pins.
var readers = &nodetest.Project{
	Caller: "readertest",
	Name:   "polars and Arrow JS",
	Plural: true,
	Dir:    scriptDir,
	Script: "read.mjs",
}

// Table is a table as a reader returns it: its column names, the
// reader's type names of the columns, such as "Int64" or "List(Int32)"
// (polars) and "Int64" or "List<Int32>" (Arrow JS), and its rows. A row
// holds one value per column: nil (null), int64 (integers of every width),
// float64, string, bool or []any (lists).
type Table = nodetest.Table

// Required says whether the environment requires the readers, turning a
// skip for a missing one into a failure. It reads the same variable as
// internal/duckdbtest.
func Required() bool {
	return nodetest.Required()
}

// Require ends the test when the readers cannot run: it skips it with the
// install hint, or fails it when Required. The readers call it; a test
// calls it first to skip before costly setup.
func Require(t testing.TB) {
	t.Helper()
	readers.Require(t)
}

// PolarsParquet reads path (a file, a glob, or with hive the glob of a
// Hive-partitioned folder tree, whose key=value folders become columns)
// with polars' scanParquet.
func PolarsParquet(t testing.TB, path string, hive bool) Table {
	t.Helper()
	args := []string{"polars-parquet", path}
	if hive {
		args = append(args, "hive")
	}
	return read(t, args...)
}

// PolarsIPC reads the Arrow IPC file at path with polars' scanIPC.
func PolarsIPC(t testing.TB, path string) Table {
	t.Helper()
	return read(t, "polars-ipc", path)
}

// ArrowJS reads the Arrow IPC file at path with Arrow JS's tableFromIPC,
// the lz4 and zstd codecs of scripts/readers/arrow-codecs.mjs registered.
func ArrowJS(t testing.TB, path string) Table {
	t.Helper()
	return read(t, "arrow", path)
}

// RunCommonJS runs a CommonJS script, such as a snippet of the README,
// with node in dir, where require finds the pinned packages, and returns
// what it prints on stdout. A failure of the script fails the test.
func RunCommonJS(t testing.TB, dir, script string) string {
	t.Helper()
	env := readers.Require(t)
	path := filepath.Join(t.TempDir(), "snippet.cjs")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(env.Node, path)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(env.Root, scriptDir, "node_modules"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("readertest: node %s: %v\n%s\n%s", path, err, strings.TrimSpace(stderr.String()), script)
	}
	return stdout.String()
}

// read runs read.mjs with args and decodes the table it prints.
func read(t testing.TB, args ...string) Table {
	t.Helper()
	env := readers.Require(t)
	cmd := exec.Command(env.Node, append([]string{filepath.Join(env.Root, scriptDir, readers.Script)}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("readertest: %s %s: %v\n%s", args[0], args[1], err, strings.TrimSpace(stderr.String()))
	}
	tab, err := decode(stdout.Bytes())
	if err != nil {
		t.Fatalf("readertest: %s %s: %v", args[0], args[1], err)
	}
	return tab
}

// decode parses read.mjs's JSON, keeping integers exact.
func decode(b []byte) (Table, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var tab Table
	if err := dec.Decode(&tab); err != nil {
		return Table{}, fmt.Errorf("reading %.200q: %w", b, err)
	}
	for _, row := range tab.Rows {
		if len(row) != len(tab.Columns) {
			return Table{}, fmt.Errorf("a row of %d values for %d columns", len(row), len(tab.Columns))
		}
	}
	if err := tab.ParseNumbers(false); err != nil {
		return Table{}, err
	}
	return tab, nil
}
