// Package nodetest finds Node.js and an npm project pinned under the module
// root, for the packages whose tests read pathflow's output with readers
// that run in node: internal/duckdbtest (DuckDB) and internal/readertest
// (polars and Arrow JS).
//
// A Project that cannot run ends the test: it skips it with the install
// hint, or fails it when the environment sets RequireEnv to 1 (as CI
// does), so a missing reader cannot pass as a skip. Table is a table as
// such a reader prints it.
package nodetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// RequireEnv names the environment variable that, set to 1, turns a skip
// for a missing reader into a failure. It configures the tests, not the
// job, so it stays out of the PATHFLOW_ prefix, where every variable is a
// configuration key's (or one that internal/cli.OtherVariables lists).
// One variable requires every analyst's reader.
const RequireEnv = "REQUIRE_DUCKDB"

// Required says whether the environment requires the readers, turning a
// skip for a missing one into a failure.
func Required() bool {
	return os.Getenv(RequireEnv) == "1"
}

// Project is an npm project under the module root whose pinned packages
// tests run in node. Declare one as a package variable: it finds node and
// checks the installation once per test binary.
type Project struct {
	// Caller is the package that uses the project, the prefix of its
	// messages, such as "duckdbtest".
	Caller string
	// Name is what the project provides, as messages name it, such as
	// "DuckDB"; Plural says that it names several readers.
	Name   string
	Plural bool
	// Dir is the project's directory relative to the module root, such as
	// "scripts/duckdb".
	Dir string
	// Script is the file in Dir that the tests run; without it the
	// checkout is broken, which fails the test rather than skipping it.
	Script string
	// Packages are the packages that must be installed at the versions
	// package.json pins; nil means every dependency it lists.
	Packages []string

	once        sync.Once
	env         Env
	unavailable string // why the project cannot run here; empty when it can
	err         error  // a broken checkout
}

// Env is where node and the project are.
type Env struct {
	// Root is the module root.
	Root string
	// Node is the node executable.
	Node string
}

// InstallHint is the command, run from the module root, that installs the
// pinned packages.
func (p *Project) InstallHint() string {
	return "npm ci --prefix " + p.Dir
}

// Require returns where node and the project are, finding them on first
// use, or ends the test when the project cannot run: it skips the test
// with the install hint, or fails it when Required.
func (p *Project) Require(t testing.TB) Env {
	t.Helper()
	p.once.Do(func() { p.env, p.unavailable, p.err = p.locate() })
	switch {
	case p.err != nil:
		t.Fatalf("%s: %v", p.Caller, p.err)
	case p.unavailable != "":
		p.SkipOrFail(t, p.unavailable)
	}
	return p.env
}

// SkipOrFail skips the test because the project is unavailable for the
// reason, naming the install hint, or fails it when Required.
func (p *Project) SkipOrFail(t testing.TB, reason string) {
	t.Helper()
	msg := fmt.Sprintf("%s: %s unavailable (%s): with Node.js 20 or later in PATH, run %q from the module root", p.Caller, p.Name, reason, p.InstallHint())
	if Required() {
		them := "it"
		if p.Plural {
			them = "them"
		}
		t.Fatalf("%s (%s=1 requires %s)", msg, RequireEnv, them)
	}
	t.Skip(msg)
}

// locate finds the module root and node, and checks that the pinned
// packages are installed. A missing piece gives a reason to skip; a broken
// checkout gives an error.
func (p *Project) locate() (env Env, unavailable string, err error) {
	env.Root, err = moduleRoot()
	if err != nil {
		return env, "", err
	}
	dir := filepath.Join(env.Root, p.Dir)
	if _, err := os.Stat(filepath.Join(dir, p.Script)); err != nil {
		return env, "", err
	}
	env.Node, err = exec.LookPath("node")
	if err != nil {
		return env, "node is not in PATH", nil
	}
	return env, InstallProblem(dir, p.Packages), nil
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

// InstallProblem says which of the packages (every dependency when
// packages is nil) of the npm project in dir is not installed at the
// version its package.json pins, or returns "" when all are. A version
// other than the pinned one (a stale node_modules) counts as not
// installed.
func InstallProblem(dir string, packages []string) string {
	var pinned struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := readJSON(filepath.Join(dir, "package.json"), &pinned); err != nil {
		return err.Error()
	}
	check := func(name string) string {
		var installed struct {
			Version string `json:"version"`
		}
		err := readJSON(filepath.Join(dir, "node_modules", name, "package.json"), &installed)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return fmt.Sprintf("%s is not installed in %s", name, filepath.Join(dir, "node_modules"))
		case err != nil:
			return err.Error()
		case installed.Version != pinned.Dependencies[name]:
			return fmt.Sprintf("%s %s is installed, package.json pins %q", name, installed.Version, pinned.Dependencies[name])
		}
		return ""
	}
	if packages == nil {
		for name := range pinned.Dependencies {
			if problem := check(name); problem != "" {
				return problem
			}
		}
	}
	for _, name := range packages {
		if problem := check(name); problem != "" {
			return problem
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
