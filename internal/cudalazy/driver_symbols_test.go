package cudalazy

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// driverCandidates are where distributions install the driver's library.
var driverCandidates = []string{
	"/lib/x86_64-linux-gnu/libcuda.so.1",
	"/usr/lib/x86_64-linux-gnu/libcuda.so.1",
	"/usr/lib64/libcuda.so.1",
	"/usr/lib/aarch64-linux-gnu/libcuda.so.1",
}

// resolvedNames preprocesses a C file as the build does and returns the
// driver symbols it looks up: the quoted names cuda.h's renames produce.
func resolvedNames(t *testing.T, file string, pattern *regexp.Regexp) []string {
	t.Helper()
	out, err := exec.Command("gcc", "-E", "-I", filepath.Dir(file), file).Output()
	if err != nil {
		t.Fatalf("gcc -E %s: %v", file, err)
	}
	var names []string
	for _, m := range pattern.FindAllSubmatch(out, -1) {
		names = append(names, string(m[1]))
	}
	if len(names) == 0 {
		t.Fatalf("%s: no driver symbol looked up", file)
	}
	return names
}

// TestInstalledDriverHasEveryResolvedFunction checks every symbol the
// cuda build looks up at run time (the copy's trampolines and
// internal/gpu/device's driver.h) against the installed driver library, where
// there is one: a name the driver does not export would fail only on a
// GPU, at the first call.
func TestInstalledDriverHasEveryResolvedFunction(t *testing.T) {
	if _, err := os.Stat("/usr/include/cuda.h"); err != nil {
		t.Skip("cuda.h not installed (scripts/setup-cuda.sh)")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	var lib string
	for _, c := range driverCandidates {
		if _, err := os.Stat(c); err == nil {
			lib = c
			break
		}
	}
	if lib == "" {
		t.Skip("no libcuda.so.1 installed (Debian's libcuda1 comes with scripts/setup-cuda.sh)")
	}
	f, err := elf.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	exported := map[string]bool{}
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF {
			exported[s.Name] = true
		}
	}
	names := resolvedNames(t, filepath.Join(copyDir, OutputFile), regexp.MustCompile(`cu_lazy_resolve\(&\(slot\), "(\w+)"`))
	names = append(names, resolvedNames(t, filepath.Join("..", "gpu", "device", "driver.c"), regexp.MustCompile(`\{"(\w+)", \(void \*\*\)&driver_`))...)
	versioned := 0
	for _, name := range names {
		if !exported[name] {
			t.Errorf("%s does not export %s", lib, name)
		}
		if strings.HasSuffix(name, "_v2") || strings.HasSuffix(name, "_v3") {
			versioned++
		}
	}
	// cuMemAlloc and its kin must be looked up under cuda.h's names.
	if versioned == 0 {
		t.Errorf("no versioned name among %d symbols: the renames of cuda.h were not applied", len(names))
	}
	t.Logf("%d symbols, %d of them versioned, all in %s", len(names), versioned, lib)
}
