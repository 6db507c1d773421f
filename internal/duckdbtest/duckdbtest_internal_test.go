package duckdbtest

import (
	"fmt"
	"math/big"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// fakeTB records how a helper ended the test instead of ending the real
// one.
type fakeTB struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Skip(args ...any) {
	f.skipped, f.msg = true, fmt.Sprint(args...)
	runtime.Goexit()
}

func (f *fakeTB) Fatal(args ...any) {
	f.failed, f.msg = true, fmt.Sprint(args...)
	runtime.Goexit()
}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// capture runs fn with a fakeTB in its own goroutine, which Skip and Fatal
// end as they would a test's.
func capture(fn func(tb testing.TB)) *fakeTB {
	f := &fakeTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f
}

func TestSkipOrFail(t *testing.T) {
	t.Setenv(RequireEnv, "")
	f := capture(func(tb testing.TB) { duckdb.SkipOrFail(tb, "node is missing") })
	if !f.skipped || f.failed || !strings.Contains(f.msg, InstallHint) || !strings.Contains(f.msg, "node is missing") {
		t.Errorf("without %s: skipped %v, failed %v, message %q; want a skip naming the reason and %q", RequireEnv, f.skipped, f.failed, f.msg, InstallHint)
	}
	t.Setenv(RequireEnv, "1")
	f = capture(func(tb testing.TB) { duckdb.SkipOrFail(tb, "node is missing") })
	if f.skipped || !f.failed || !strings.Contains(f.msg, InstallHint) || !strings.Contains(f.msg, RequireEnv) {
		t.Errorf("with %s=1: skipped %v, failed %v, message %q; want a failure naming %q", RequireEnv, f.skipped, f.failed, f.msg, InstallHint)
	}
}

func TestDecodeReply(t *testing.T) {
	line := `{"results":[{"columns":["i","h","f","nan","l","s","n"],` +
		`"types":["BIGINT","HUGEINT","DOUBLE","DOUBLE","INTEGER[]","STRUCT(k DOUBLE[])","BIGINT"],` +
		`"rows":[[-9007199254740993,170141183460469231731687303715884105727,2.0,"NaN",[1,null,-3],{"k":[1.5,1e+300]},null]]}]}`
	got, err := decodeReply([]byte(line), []string{"SELECT ..."})
	if err != nil {
		t.Fatal(err)
	}
	huge, _ := new(big.Int).SetString("170141183460469231731687303715884105727", 10)
	want := []Result{{
		Columns: []string{"i", "h", "f", "nan", "l", "s", "n"},
		Types:   []string{"BIGINT", "HUGEINT", "DOUBLE", "DOUBLE", "INTEGER[]", "STRUCT(k DOUBLE[])", "BIGINT"},
		Rows: [][]any{{
			int64(-9007199254740993), huge, 2.0, "NaN",
			[]any{int64(1), nil, int64(-3)},
			map[string]any{"k": []any{1.5, 1e300}},
			nil,
		}},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decodeReply:\ngot  %#v\nwant %#v", got, want)
	}

	_, err = decodeReply([]byte(`{"error":"Parser Error: near SELEC","statement":1}`), []string{"SELECT 1", "SELEC 2"})
	if err == nil || !strings.Contains(err.Error(), "statement 2 of 2") || !strings.Contains(err.Error(), "SELEC 2") || !strings.Contains(err.Error(), "Parser Error: near SELEC") {
		t.Errorf("error reply: %v, want the statement, its SQL and DuckDB's message", err)
	}
	if _, err := decodeReply([]byte(`{"results":[]}`), []string{"SELECT 1"}); err == nil {
		t.Error("a reply with too few results decoded without error")
	}
}

func TestText(t *testing.T) {
	huge, _ := new(big.Int).SetString("-170141183460469231731687303715884105728", 10)
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, "NULL"},
		{"x", "x"},
		{int64(-9007199254740993), "-9007199254740993"},
		{huge, "-170141183460469231731687303715884105728"},
		{2.0, "2"},
		{0.1, "0.1"},
		{true, "true"},
		{[]any{int64(1), nil}, "[1,null]"},
		{map[string]any{"a": int64(1)}, `{"a":1}`},
	} {
		if got := Text(c.v); got != c.want {
			t.Errorf("Text(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestSQLString(t *testing.T) {
	if got, want := SQLString("/tmp/it's.parquet"), `'/tmp/it''s.parquet'`; got != want {
		t.Errorf("SQLString = %s, want %s", got, want)
	}
}

// TestQuery runs the real DuckDB: values of every kind come back exactly,
// and errors name the statement.
func TestQuery(t *testing.T) {
	Require(t)
	res := Query(t,
		"CREATE TABLE t AS SELECT 9223372036854775807::BIGINT AS big, NULL::BIGINT AS none, "+
			"[1, NULL, 3]::INTEGER[] AS list, 2.0::DOUBLE AS two, 'inf'::DOUBLE AS inf",
		"SELECT * FROM t",
		"SELECT sum(big) AS s FROM (SELECT big FROM t UNION ALL SELECT big FROM t)",
		// Several statements in one string: the last one's result.
		"SELECT 1 AS one; SELECT 2 AS two",
	)
	if len(res) != 4 {
		t.Fatalf("%d results for 4 statements", len(res))
	}
	wantRow := []any{int64(9223372036854775807), nil, []any{int64(1), nil, int64(3)}, 2.0, "Infinity"}
	if got := res[1]; !reflect.DeepEqual(got.Rows, [][]any{wantRow}) ||
		!reflect.DeepEqual(got.Types, []string{"BIGINT", "BIGINT", "INTEGER[]", "DOUBLE", "DOUBLE"}) {
		t.Errorf("SELECT * FROM t: types %q rows %#v, want rows %#v", got.Types, got.Rows, wantRow)
	}
	if got := Text(res[2].Rows[0][0]); got != "18446744073709551614" || res[2].Types[0] != "HUGEINT" {
		t.Errorf("sum: %s of type %s, want 18446744073709551614 of type HUGEINT", got, res[2].Types[0])
	}
	if got := res[3].Maps(); !reflect.DeepEqual(got, []map[string]any{{"two": int64(2)}}) {
		t.Errorf("two statements in one string gave %v, want the second's result", got)
	}

	if got := Scalar(t, "SELECT NULL"); got != "NULL" {
		t.Errorf("Scalar(NULL) = %q", got)
	}

	f := capture(func(tb testing.TB) { Query(tb, "SELECT 1", "SELECT no_such_column") })
	if !f.failed || !strings.Contains(f.msg, "statement 2 of 2") || !strings.Contains(f.msg, "no_such_column") {
		t.Errorf("bad SQL: failed %v, message %q; want a failure naming the statement", f.failed, f.msg)
	}
	// Each Query gets a fresh database.
	f = capture(func(tb testing.TB) { Query(tb, "SELECT * FROM t") })
	if !f.failed || !strings.Contains(f.msg, "Table with name t does not exist") {
		t.Errorf("table from an earlier Query: failed %v, message %q; want it not to exist", f.failed, f.msg)
	}
	f = capture(func(tb testing.TB) { Scalar(tb, "SELECT * FROM range(2)") })
	if !f.failed || !strings.Contains(f.msg, "2 rows of 1 columns") {
		t.Errorf("Scalar of two rows: failed %v, message %q", f.failed, f.msg)
	}
	// The process still answers after errors.
	if got := Scalar(t, "SELECT 40 + 2"); got != "42" {
		t.Errorf("after errors, Scalar = %q, want 42", got)
	}
}
