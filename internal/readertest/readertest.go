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
// (duckdbtest.RequireEnv) is 1, as in CI: then they fail it, so no reader
// can go missing as a skip. One variable requires every analyst's reader.
package readertest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/duckdbtest"
)

// InstallHint is the command, run from the module root, that installs the
// pinned readers.
const InstallHint = "npm ci --prefix scripts/readers"

// scriptDir is the directory of the npm project, relative to the module
// root.
const scriptDir = "scripts/readers"

// Table is a table as a reader returns it.
type Table struct {
	// Columns are the column names.
	Columns []string
	// Types are the reader's type names, such as "Int64" or "List(Int32)"
	// (polars) and "Int64" or "List<Int32>" (Arrow JS).
	Types []string
	// Rows hold one value per column: nil (null), int64 (integers of every
	// width), float64, string, bool or []any (lists).
	Rows [][]any
}

// Column returns the values of the named column, or nil when there is no
// such column.
func (t Table) Column(name string) []any {
	for j, c := range t.Columns {
		if c == name {
			col := make([]any, len(t.Rows))
			for i, row := range t.Rows {
				col[i] = row[j]
			}
			return col
		}
	}
	return nil
}

// Required says whether the environment requires the readers, turning a
// skip for a missing one into a failure. It reads the same variable as
// internal/duckdbtest.
func Required() bool {
	return os.Getenv(duckdbtest.RequireEnv) == "1"
}

// Require ends the test when the readers cannot run: it skips it with the
// install hint, or fails it when Required. The readers call it; a test
// calls it first to skip before costly setup.
func Require(t testing.TB) {
	t.Helper()
	setup(t)
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
	env := setup(t)
	path := filepath.Join(t.TempDir(), "snippet.cjs")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(env.node, path)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(env.root, scriptDir, "node_modules"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("readertest: node %s: %v\n%s\n%s", path, err, strings.TrimSpace(stderr.String()), script)
	}
	return stdout.String()
}

// environment is where node and the packages are.
type environment struct {
	root, node string
}

var (
	setupOnce   sync.Once
	found       environment
	unavailable string // why the readers cannot run here; empty when they can
	setupErr    error  // a broken checkout
)

func setup(t testing.TB) environment {
	t.Helper()
	setupOnce.Do(func() { found, unavailable, setupErr = locate() })
	switch {
	case setupErr != nil:
		t.Fatalf("readertest: %v", setupErr)
	case unavailable != "":
		msg := fmt.Sprintf("readertest: polars and Arrow JS unavailable (%s): with Node.js 20 or later in PATH, run %q from the module root", unavailable, InstallHint)
		if Required() {
			t.Fatalf("%s (%s=1 requires them)", msg, duckdbtest.RequireEnv)
		}
		t.Skip(msg)
	}
	return found
}

// locate finds the module root and node and checks that every pinned
// package is installed at its pinned version.
func locate() (env environment, unavailable string, err error) {
	env.root, err = moduleRoot()
	if err != nil {
		return env, "", err
	}
	dir := filepath.Join(env.root, scriptDir)
	if _, err := os.Stat(filepath.Join(dir, "read.mjs")); err != nil {
		return env, "", err
	}
	env.node, err = exec.LookPath("node")
	if err != nil {
		return env, "node is not in PATH", nil
	}
	return env, installProblem(dir), nil
}

// moduleRoot returns the nearest directory at or above the working
// directory that holds go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the working directory")
		}
		dir = parent
	}
}

// installProblem says which pinned package of dir's package.json is not
// installed at its pinned version, or returns "" when all are.
func installProblem(dir string) string {
	var pinned struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := readJSON(filepath.Join(dir, "package.json"), &pinned); err != nil {
		return err.Error()
	}
	for name, version := range pinned.Dependencies {
		var installed struct {
			Version string `json:"version"`
		}
		err := readJSON(filepath.Join(dir, "node_modules", name, "package.json"), &installed)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return fmt.Sprintf("%s is not installed in %s", name, filepath.Join(dir, "node_modules"))
		case err != nil:
			return err.Error()
		case installed.Version != version:
			return fmt.Sprintf("%s %s is installed, package.json pins %q", name, installed.Version, version)
		}
	}
	return ""
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// read runs read.mjs with args and decodes the table it prints.
func read(t testing.TB, args ...string) Table {
	t.Helper()
	env := setup(t)
	cmd := exec.Command(env.node, append([]string{filepath.Join(env.root, scriptDir, "read.mjs")}, args...)...)
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
	var raw struct {
		Columns []string `json:"columns"`
		Types   []string `json:"types"`
		Rows    [][]any  `json:"rows"`
	}
	if err := dec.Decode(&raw); err != nil {
		return Table{}, fmt.Errorf("reading %.200q: %w", b, err)
	}
	for _, row := range raw.Rows {
		if len(row) != len(raw.Columns) {
			return Table{}, fmt.Errorf("a row of %d values for %d columns", len(row), len(raw.Columns))
		}
		for j, v := range row {
			cv, err := convert(v)
			if err != nil {
				return Table{}, fmt.Errorf("column %q: %w", raw.Columns[j], err)
			}
			row[j] = cv
		}
	}
	return Table{Columns: raw.Columns, Types: raw.Types, Rows: raw.Rows}, nil
}

// convert replaces the json.Numbers in v: integer literals become int64,
// literals with a '.' or an exponent float64.
func convert(v any) (any, error) {
	switch v := v.(type) {
	case json.Number:
		s := string(v)
		if strings.ContainsAny(s, ".eE") {
			return strconv.ParseFloat(s, 64)
		}
		return strconv.ParseInt(s, 10, 64)
	case []any:
		for i, x := range v {
			cx, err := convert(x)
			if err != nil {
				return nil, err
			}
			v[i] = cx
		}
	}
	return v, nil
}
