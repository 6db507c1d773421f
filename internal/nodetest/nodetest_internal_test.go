package nodetest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestInstallProblem(t *testing.T) {
	dir := t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "package.json"), `{"dependencies": {"a": "1.2.3-r.1", "b": "2.0.0"}}`)
	for _, packages := range [][]string{{"a"}, nil} {
		if got := InstallProblem(dir, packages); !strings.Contains(got, "not installed") {
			t.Errorf("%q without node_modules: %q, want it to say not installed", packages, got)
		}
	}
	installed := filepath.Join(dir, "node_modules", "a", "package.json")
	write(installed, `{"version": "1.0.0"}`)
	if got := InstallProblem(dir, []string{"a"}); !strings.Contains(got, "a 1.0.0 is installed") {
		t.Errorf("with a stale install: %q, want it to name the installed version", got)
	}
	write(installed, `{"version": "1.2.3-r.1"}`)
	if got := InstallProblem(dir, []string{"a"}); got != "" {
		t.Errorf("with the pinned version of a: %q, want no problem", got)
	}
	if got := InstallProblem(dir, nil); !strings.Contains(got, "b is not installed") {
		t.Errorf("every dependency, b missing: %q, want it to say b is not installed", got)
	}
	write(filepath.Join(dir, "node_modules", "b", "package.json"), `{"version": "2.0.0"}`)
	if got := InstallProblem(dir, nil); got != "" {
		t.Errorf("every dependency at its pinned version: %q, want no problem", got)
	}
}

// TestRequireSkips requires a project without package.json (this package's
// own folder), as a checkout without node_modules is: the test skips with
// the install hint.
func TestRequireSkips(t *testing.T) {
	t.Setenv(RequireEnv, "")
	p := &Project{Caller: "nodetest", Name: "nothing", Dir: "internal/nodetest", Script: "nodetest.go"}
	var sub *testing.T
	t.Run("missing", func(t *testing.T) {
		sub = t
		p.Require(t)
		t.Error("Require returned")
	})
	if !sub.Skipped() {
		t.Errorf("Require did not skip the test")
	}
	if want := "npm ci --prefix internal/nodetest"; p.InstallHint() != want {
		t.Errorf("InstallHint %q, want %q", p.InstallHint(), want)
	}
}

func TestNumberWideOnlyWhenAsked(t *testing.T) {
	huge := json.Number("18446744073709551614")
	if v, err := Number(huge, true); err != nil || fmt.Sprint(v) != string(huge) {
		t.Errorf("wide: %v, %v; want %s as a *big.Int", v, err, huge)
	}
	if v, err := Number([]any{huge}, false); err == nil {
		t.Errorf("not wide: %v, want an error", v)
	}
	v, err := Number(map[string]any{"a": []any{json.Number("1"), json.Number("1e-3")}}, false)
	if want := map[string]any{"a": []any{int64(1), 0.001}}; err != nil || !reflect.DeepEqual(v, want) {
		t.Errorf("%#v, %v; want %#v", v, err, want)
	}
}
