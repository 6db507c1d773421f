package cudalazy

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"go/format"
	"os"
	"os/exec"
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
// under "Changed:", "Formatted:", "Added:" and "Left out", first word of
// each.
func notice(t *testing.T) (changed, formatted, added, leftOut []string) {
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
		case line == "Formatted:":
			list = &formatted
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
	if len(changed) == 0 || len(formatted) == 0 || len(added) == 0 || len(leftOut) == 0 {
		t.Fatalf("NOTICE lists changed %q, formatted %q, added %q, left out %q: a list is missing", changed, formatted, added, leftOut)
	}
	return changed, formatted, added, leftOut
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
	changed, formatted, added, leftOut := notice(t)
	formattedHash := readFormatted(t)
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
		case in(formatted, name):
			checkFormatted(t, name, b, formattedHash[name])
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
	if len(formattedHash) != len(formatted) {
		t.Errorf("FORMATTED.sha256 lists %d files, NOTICE %d", len(formattedHash), len(formatted))
	}
	for _, name := range append(append(append([]string{}, changed...), formatted...), added...) {
		if !here[name] {
			t.Errorf("NOTICE lists %s, which the copy does not hold", name)
		}
	}
}

// readFormatted reads FORMATTED.sha256: "hash  file" lines.
func readFormatted(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(copyDir, "FORMATTED.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	hashes := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		hash, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("FORMATTED.sha256: malformed line %q", line)
		}
		hashes[name] = hash
	}
	return hashes
}

// checkFormatted checks a file NOTICE lists as formatted: gofmt leaves it
// as it is, its hash is the recorded one, and, where Go's module cache
// holds the published module, it is gofmt's output for the published file.
func checkFormatted(t *testing.T, name string, b []byte, want string) {
	t.Helper()
	if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != want {
		t.Errorf("%s: NOTICE lists it as formatted, but its hash is not the one in FORMATTED.sha256", name)
	}
	if out, err := format.Source(b); err != nil || !bytes.Equal(out, b) {
		t.Errorf("%s: NOTICE lists it as formatted, but gofmt changes it (%v)", name, err)
	}
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return
	}
	published, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(cache)), modulePrefix, name))
	if err != nil {
		return // the published module is not in this machine's cache: the recorded hash stands
	}
	if out, err := format.Source(published); err != nil || !bytes.Equal(out, b) {
		t.Errorf("%s is not gofmt's output for the published file (%v)", name, err)
	}
}
