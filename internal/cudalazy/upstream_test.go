package cudalazy

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// publishedH1 is gorgonia.org/cu v0.9.6's module checksum, as go.sum had it
// before the replace and as the public checksum database serves it
// (https://sum.golang.org/lookup/gorgonia.org/cu@v0.9.6).
const publishedH1 = "h1:m9gAnB9rWDVQACVwavCfQSVNtgLKtrDXRExybwQu9YY="

const modulePrefix = "gorgonia.org/cu@v0.9.6/"

// notice reads the file lists of the copy's NOTICE: the indented lines
// under "Changed:", "Added:" and "Left out", first word of each.
func notice(t *testing.T) (changed, added, leftOut []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(copyDir, "NOTICE"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var list *[]string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		switch {
		case line == "Changed:":
			list = &changed
		case line == "Added:":
			list = &added
		case strings.HasPrefix(line, "Left out"):
			list = &leftOut
		case strings.HasPrefix(line, "  ") && list != nil:
			*list = append(*list, strings.Fields(line)[0])
		default:
			list = nil
		}
	}
	if len(changed) == 0 || len(added) == 0 || len(leftOut) == 0 {
		t.Fatalf("NOTICE lists changed %q, added %q, left out %q: a list is missing", changed, added, leftOut)
	}
	return changed, added, leftOut
}

// TestCopyDiffersFromUpstreamOnlyWhereNoticeSays checks the copy against
// the published module's file hashes (UPSTREAM.sha256, itself checked
// against the module's checksum): every file is unchanged unless NOTICE
// lists it as changed or added, and every published file is here unless
// NOTICE lists it as left out.
func TestCopyDiffersFromUpstreamOnlyWhereNoticeSays(t *testing.T) {
	manifest, err := os.ReadFile(filepath.Join(copyDir, "UPSTREAM.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	// Go's h1 is the SHA-256 of exactly these lines ("hash  module@version/file",
	// sorted): the manifest is the published module's.
	sum := sha256.Sum256(manifest)
	if h1 := "h1:" + base64.StdEncoding.EncodeToString(sum[:]); h1 != publishedH1 {
		t.Fatalf("UPSTREAM.sha256 hashes to %s, not to gorgonia.org/cu v0.9.6's %s", h1, publishedH1)
	}
	upstream := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(manifest), "\n"), "\n") {
		hash, name, ok := strings.Cut(line, "  ")
		if !ok || !strings.HasPrefix(name, modulePrefix) {
			t.Fatalf("UPSTREAM.sha256: malformed line %q", line)
		}
		upstream[strings.TrimPrefix(name, modulePrefix)] = hash
	}
	changed, added, leftOut := notice(t)
	in := func(list []string, name string) bool {
		for _, pattern := range list {
			if dir, isDir := strings.CutSuffix(pattern, "/"); isDir && strings.HasPrefix(name, dir+"/") {
				return true
			}
			if ok, _ := path.Match(pattern, path.Base(name)); ok && !strings.HasSuffix(pattern, "/") {
				return true
			}
		}
		return false
	}

	entries, err := os.ReadDir(copyDir)
	if err != nil {
		t.Fatal(err)
	}
	here := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			t.Errorf("%s/: the copy holds the root package only", name)
			continue
		}
		here[name] = true
		b, err := os.ReadFile(filepath.Join(copyDir, name))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(b)
		want, published := upstream[name]
		switch {
		case in(added, name) && published:
			t.Errorf("%s: NOTICE lists it as added, but the published module has it", name)
		case in(added, name):
		case !published:
			t.Errorf("%s: not in the published module, and NOTICE does not list it as added", name)
		case in(changed, name) && hex.EncodeToString(h[:]) == want:
			t.Errorf("%s: NOTICE lists it as changed, but it is the published file", name)
		case in(changed, name):
		case hex.EncodeToString(h[:]) != want:
			t.Errorf("%s differs from the published module, and NOTICE does not list it as changed", name)
		}
	}
	for name := range upstream {
		if !here[name] && !in(leftOut, name) {
			t.Errorf("%s: in the published module, missing here, and NOTICE does not list it as left out", name)
		}
		if here[name] && in(leftOut, name) {
			t.Errorf("%s: NOTICE lists it as left out, but it is here", name)
		}
	}
	for _, name := range append(append([]string{}, changed...), added...) {
		if !here[name] {
			t.Errorf("NOTICE lists %s, which the copy does not hold", name)
		}
	}
}
