package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// moduleCacheFile returns the path of file inside the Go module cache when
// file comes from a module (File.Module) that `go mod download` has put
// there. The cache is found as the go command finds it, without running
// it: $GOMODCACHE, else the first $GOPATH entry's pkg/mod, else
// ~/go/pkg/mod. The cache is verified against go.sum when filled, and
// read-only after.
func moduleCacheFile(file File) (string, bool) {
	if file.Module == "" {
		return "", false
	}
	modPath, version, ok := strings.Cut(file.Module, "@")
	if !ok {
		return "", false
	}
	for _, root := range moduleCacheRoots() {
		p := filepath.Join(root, escapeModulePath(modPath)+"@"+version, filepath.FromSlash(file.ModuleFile))
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// moduleCacheRoots lists where the module cache may be.
func moduleCacheRoots() []string {
	if c := os.Getenv("GOMODCACHE"); c != "" {
		return []string{c}
	}
	if gopath := os.Getenv("GOPATH"); gopath != "" {
		return []string{filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod")}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return []string{filepath.Join(home, "go", "pkg", "mod")}
	}
	return nil
}

// escapeModulePath spells a module path as the cache's folder names do:
// each upper-case letter as '!' and its lower case.
func escapeModulePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
