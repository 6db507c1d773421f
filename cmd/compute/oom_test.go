package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestOutOfMemoryExit runs the compute command under ulimit -v on graphs
// whose p line declares more vertices than the limit holds: far more (the
// check before allocating refuses them) and a little more (the run may
// get past the check and run out; the supervisor reports it). Either
// way the code is 9, the last line is the error line, and no temporary is
// left.
func TestOutOfMemoryExit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ulimit -v and the supervisor are Linux's")
	}
	if testing.Short() {
		t.Skip("starts a process")
	}
	for _, tc := range []struct {
		name, graph, ulimitKiB string
		wants                  []string // the last line holds one
	}{
		{"declared far beyond", "p sp 300000000 1\na 1 2 3\n", "6000000",
			[]string{"compute: error: not enough memory: {input} (300000000 vertices, 1 arcs) needs at least about 11.2 GiB more"}},
		// 2.9 GB leaves about the 1.1 GiB the check asks for, less than the
		// run takes: it is refused or runs out (a one-source run of 30M
		// vertices fits 3.0 GB at times).
		{"declared a little beyond", "p sp 30000000 1\na 1 2 3\n", "2900000",
			[]string{"compute: error: not enough memory: {input} (30000000 vertices", "compute: error: out of memory: "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			input := filepath.Join(work, "big.gr")
			if err := os.WriteFile(input, []byte(tc.graph), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(work, "o")
			cmd := exec.Command("sh", "-c", `ulimit -v "$1" && exec "$2" -input "$3" -sources 1 -out "$4"`,
				"sh", tc.ulimitKiB, os.Args[0], input, out)
			cmd.Env = append(os.Environ(), asMainEnv+"=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 9 {
				t.Fatalf("compute: %v, want exit 9; stderr:\n%.3000s", err, stderr.String())
			}
			lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
			last := lines[len(lines)-1]
			found := false
			for _, want := range tc.wants {
				found = found || strings.HasPrefix(last, strings.ReplaceAll(want, "{input}", input))
			}
			t.Logf("last line: %s", last)
			if !found || !strings.HasSuffix(last, "(exit 9)") {
				t.Errorf("last line %q, want one starting with one of %q and ending (exit 9)", last, tc.wants)
			}
			entries, err := os.ReadDir(work)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.Name() != "big.gr" {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}
