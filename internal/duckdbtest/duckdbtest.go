// Package duckdbtest lets tests read pathflow's output files with a real
// DuckDB, the way analysts read them, instead of with pathflow's own
// readers.
//
// DuckDB runs in Node.js through the @duckdb/node-api package pinned in
// scripts/duckdb (package.json and package-lock.json), driven by
// scripts/duckdb/query.mjs. Install it once from the module root:
//
//	npm ci --prefix scripts/duckdb
//
// A test writes a table and asks DuckDB about it:
//
//	path := filepath.Join(t.TempDir(), "edges.parquet")
//	// ... write it ...
//	edges := "read_parquet(" + duckdbtest.SQLString(path) + ")"
//	if got := duckdbtest.Scalar(t, "SELECT count(*) FROM "+edges); got != "3" {
//		t.Errorf("DuckDB counts %s rows, want 3", got)
//	}
//	res := duckdbtest.Query(t,
//		"CREATE VIEW e AS FROM "+edges,
//		"SELECT src, sum(weight) AS total FROM e GROUP BY src ORDER BY src",
//	)
//	for _, row := range res[1].Rows { ... } // row[0] int64, row[1] int64 or *big.Int
//
// Without node or that installation, Query and Require skip the test with
// that hint, unless the environment sets REQUIRE_DUCKDB=1 (as CI
// does): then they fail it, so a missing DuckDB cannot pass as a skip.
//
// Loading DuckDB takes most of a second, so a test binary starts one node
// process on first use and sends it every query; each Query call gets a
// fresh in-memory database. Relative paths in SQL are relative to the
// test's working directory (the package directory under go test), as they
// are for Go code; SQLString quotes a path for SQL.
package duckdbtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/nodetest"
)

// RequireEnv names the environment variable that, set to 1, turns a skip
// for a missing DuckDB into a failure (see nodetest.RequireEnv).
const RequireEnv = nodetest.RequireEnv

// InstallHint is the command, run from the module root, that installs the
// pinned DuckDB.
const InstallHint = "npm ci --prefix " + scriptDir

// scriptDir is the directory of the npm project, relative to the module
// root.
const scriptDir = "scripts/duckdb"

// apiPackage is the npm package whose installed version must match the one
// pinned in package.json.
const apiPackage = "@duckdb/node-api"

// duckdb is the npm project of query.mjs.
var duckdb = &nodetest.Project{
	Caller:   "duckdbtest",
	Name:     "DuckDB",
	Dir:      scriptDir,
	Script:   "query.mjs",
	Packages: []string{apiPackage},
}

// Result is the result of one SQL statement: its column names, the
// DuckDB type names of the columns, such as "BIGINT" or "INTEGER[]", and
// its rows, each with one value per column.
//
// A value in Rows is nil (NULL), bool, string, int64, *big.Int (an
// integer outside int64, such as a HUGEINT sum), float64 (FLOAT and
// DOUBLE, except NaN and infinities, which are the strings "NaN",
// "Infinity" and "-Infinity"), []any (LIST and ARRAY) or map[string]any
// (STRUCT). DECIMAL, DATE, TIMESTAMP and other types are strings as
// @duckdb/node-api writes them to JSON. Integer columns of every width come
// back exactly.
type Result = nodetest.Table

// Query runs the statements in order on a fresh in-memory DuckDB, so later
// statements see the views and tables of earlier ones, and returns one
// Result per statement. A DuckDB error fails the test, naming the
// statement. Query skips or fails the test as Require does when DuckDB is
// not installed.
func Query(t testing.TB, sql ...string) []Result {
	t.Helper()
	if len(sql) == 0 {
		t.Fatal("duckdbtest: Query without statements")
	}
	s := server(t)
	results, err := s.query(sql)
	if err != nil {
		t.Fatalf("duckdbtest: %v", err)
	}
	return results
}

// Scalar runs one statement that must return one row of one column and
// returns its value as text: integers in decimal with all their digits,
// floats in Go's shortest 'g' form, strings as they are, booleans as true
// or false, lists and structs as JSON, and NULL as "NULL" (use Query to
// tell it from the string).
func Scalar(t testing.TB, sql string) string {
	t.Helper()
	r := Query(t, sql)[0]
	if len(r.Rows) != 1 || len(r.Columns) != 1 {
		t.Fatalf("duckdbtest: %s: got %d rows of %d columns, want one value", sql, len(r.Rows), len(r.Columns))
	}
	return Text(r.Rows[0][0])
}

// Text formats a value of a Result as Scalar does.
func Text(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case *big.Int:
		return v.String()
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// SQLString returns s as a SQL string literal, for file paths in queries.
func SQLString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// Require starts DuckDB if it is not running yet, or ends the test when it
// cannot run: it skips the test with the install hint, or fails it when
// REQUIRE_DUCKDB=1. Query calls it; a test calls it first to skip
// before costly setup.
func Require(t testing.TB) {
	t.Helper()
	server(t)
}

// process is the shared node process running query.mjs --serve.
type process struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *syncBuffer
	dead   error // set once the process cannot answer any more
}

var (
	startOnce sync.Once
	shared    *process
	startErr  error // why the process did not start although it should
)

// server returns the shared process, starting it on first use, or ends the
// test when there is none.
func server(t testing.TB) *process {
	t.Helper()
	env := duckdb.Require(t)
	startOnce.Do(func() { shared, startErr = start(env.Root, env.Node) })
	if startErr != nil {
		t.Fatalf("duckdbtest: %v", startErr)
	}
	return shared
}

// start starts query.mjs --serve. The process lives as long as the test
// binary: it exits when its stdin closes with the binary's exit. Its
// stderr goes to a buffer rather than the binary's own, so no pipe of go
// test's outlives the binary.
func start(root, node string) (*process, error) {
	cmd := exec.Command(node, filepath.Join(root, scriptDir, duckdb.Script), "--serve")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", cmd, err)
	}
	return &process{cmd: cmd, stdin: stdin, stdout: bufio.NewReader(stdout), stderr: stderr}, nil
}

// reply is one line of query.mjs --serve output.
type reply struct {
	Results   []Result `json:"results"`
	Error     *string  `json:"error"`
	Statement *int     `json:"statement"`
}

// query sends one request and reads its reply. Requests are serialized:
// DuckDB parallelizes each query on its own.
func (p *process) query(sql []string) ([]Result, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead != nil {
		return nil, p.dead
	}
	req, err := json.Marshal(sql)
	if err != nil {
		return nil, err
	}
	line, err := p.roundTrip(append(req, '\n'))
	if err != nil {
		p.dead = p.exited(err)
		return nil, p.dead
	}
	return decodeReply(line, sql)
}

func (p *process) roundTrip(req []byte) ([]byte, error) {
	if _, err := p.stdin.Write(req); err != nil {
		return nil, err
	}
	return p.stdout.ReadBytes('\n')
}

// exited describes the end of the process after a failed round trip.
func (p *process) exited(err error) error {
	p.stdin.Close()
	waitErr := p.cmd.Wait()
	if waitErr == nil {
		waitErr = err
	}
	msg := strings.TrimSpace(p.stderr.String())
	if msg == "" {
		msg = "(no stderr)"
	}
	return fmt.Errorf("%s stopped: %v\n%s", p.cmd, waitErr, msg)
}

// decodeReply turns a reply line into results, or into the DuckDB error
// with the statement it belongs to.
func decodeReply(line []byte, sql []string) ([]Result, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber() // keep integers beyond 2^53 exact
	var r reply
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("reading reply %.200q: %w", line, err)
	}
	if r.Error != nil {
		if i := r.Statement; i != nil && *i >= 0 && *i < len(sql) {
			return nil, fmt.Errorf("statement %d of %d failed:\n%s\n%s", *i+1, len(sql), sql[*i], *r.Error)
		}
		return nil, errors.New(*r.Error)
	}
	if len(r.Results) != len(sql) {
		return nil, fmt.Errorf("%d results for %d statements", len(r.Results), len(sql))
	}
	for i, res := range r.Results {
		if err := res.ParseNumbers(true); err != nil {
			return nil, fmt.Errorf("statement %d, %w", i+1, err)
		}
	}
	return r.Results, nil
}

// syncBuffer is a bytes.Buffer that the process's stderr copier and the
// test goroutines can share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
