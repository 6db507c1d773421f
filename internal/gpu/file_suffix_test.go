package gpu

import (
	"go/build/constraint"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCUDAOnlyFilesCarryTheSuffix holds the whole module to one naming
// rule, so that a file's name says whether a default build compiles it:
// a Go file built only with the cuda tag (//go:build cuda) ends in
// _cuda.go (_cuda_test.go for tests), one built only without it
// (//go:build !cuda) ends in _nocuda.go (_nocuda_test.go), and no other
// constraint mentions the tag. The suffixes are names only: unlike _linux.go,
// Go does not derive a constraint from them, so the //go:build line stays.
func TestCUDAOnlyFilesCarryTheSuffix(t *testing.T) {
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// third_party holds copies of other projects, named their way.
			if name := d.Name(); path != root && (name == "third_party" || name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		expr, err := buildConstraint(path)
		if err != nil {
			return err
		}
		want := ""
		switch {
		case expr == "cuda":
			want = "_cuda"
		case expr == "!cuda":
			want = "_nocuda"
		case mentionsCUDA(expr):
			t.Errorf("%s: //go:build %s: a file is either cuda-only or built only without cuda", path, expr)
			return nil
		}
		checked++
		base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".go"), "_test")
		var has string
		for _, s := range []string{"_nocuda", "_cuda"} {
			if strings.HasSuffix(base, s) {
				has = s
				break
			}
		}
		if has != want {
			t.Errorf("%s: //go:build %q, so its name must end in %q before .go or _test.go (has %q)", path, expr, want, has)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Errorf("%d Go files checked: the walk is looking in the wrong place", checked)
	}
}

// buildConstraint returns the file's //go:build expression, "" when none.
func buildConstraint(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			break
		}
		if constraint.IsGoBuild(line) {
			expr, err := constraint.Parse(line)
			if err != nil {
				return "", err
			}
			return expr.String(), nil
		}
	}
	return "", nil
}

// mentionsCUDA reports whether a build expression names the cuda tag.
func mentionsCUDA(expr string) bool {
	e, err := constraint.Parse("//go:build " + expr)
	if err != nil {
		return false
	}
	found := false
	e.Eval(func(tag string) bool {
		found = found || tag == "cuda"
		return true
	})
	return found
}
