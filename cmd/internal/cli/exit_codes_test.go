package cli

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/pipeline/compute"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// TestEveryErrorKindHasItsExitCode: a kind of stage error without a code
// would exit as an internal error.
func TestEveryErrorKindHasItsExitCode(t *testing.T) {
	for k := stageerr.None; k <= stageerr.Incomplete; k++ {
		if _, ok := exitCodes[k]; !ok {
			t.Errorf("kind %v has no exit code", k)
		}
	}
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{errors.New("a bug"), ExitInternal},
		{&stageerr.InputError{Err: &stageerr.NotEnoughMemoryError{}}, ExitOutOfMemory},
		{fmt.Errorf("finalize: %w", &stageerr.IncompleteError{}), ExitIncomplete},
		{&stageerr.NoGPUError{Why: "none"}, ExitNoGPU},
	} {
		if got := ExitCode(tc.err); got != tc.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// TestNoGPUExitCodeIsDocumented keeps the -backend help, the reference
// config and the README's GPU section on the exit code a gpu run without
// a GPU really takes.
func TestNoGPUExitCodeIsDocumented(t *testing.T) {
	want := fmt.Sprintf("exits %d", ExitNoGPU)
	exits := regexp.MustCompile(`\bexits? (\d+)`)
	for _, k := range compute.Keys() {
		if k.Name == compute.KeyBackend && !strings.Contains(k.Usage, want) {
			t.Errorf("-backend help %q does not say %q", k.Usage, want)
		}
	}
	ref := readText(t, "../../../configs/reference.yaml")
	backendDoc := ref[strings.Index(ref, "  variant: ")+1 : strings.Index(ref, "\n  backend: ")]
	if !strings.Contains(backendDoc, want) {
		t.Errorf("configs/reference.yaml's compute.backend comment does not say %q:\n%s", want, backendDoc)
	}
	readme := readText(t, "../../../README.md")
	start := strings.Index(readme, "\n## GPU\n")
	if start < 0 {
		t.Fatal("README.md has no GPU section")
	}
	section := readme[start+1:]
	section = section[:strings.Index(section[1:], "\n## ")+1]
	found := exits.FindAllStringSubmatch(section, -1)
	if len(found) == 0 {
		t.Error("the README's GPU section names no exit code")
	}
	for _, m := range found {
		if m[1] != fmt.Sprint(ExitNoGPU) {
			t.Errorf("the README's GPU section says %q; a gpu run without a GPU exits %d", m[0], ExitNoGPU)
		}
	}
}

// readText returns the text of the file at path.
func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
