//go:build linux

package pipeline

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullDiskEnv, set in a child of the test binary, names the output folder
// the child ingests into with its file size limit at fullDiskBytes.
const (
	fullDiskEnv   = "PATHFLOW_TEST_FULL_DISK_OUT"
	fullDiskBytes = 64 << 10
)

// TestIngestFullDiskLeavesNoFolder: an ingest whose writes fail for want
// of space (here a file size limit: writes beyond it fail with EFBIG, as
// on a full disk with ENOSPC) exits with the output code and leaves no
// folder it made: neither the output, nor its temporary, nor the parents
// it created for it. The run is a child process, so the limit binds it
// alone.
func TestIngestFullDiskLeavesNoFolder(t *testing.T) {
	if out := os.Getenv(fullDiskEnv); out != "" {
		ingestUnderFileSizeLimit(t, out)
		return
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "made", "for", "graph")
	cmd := exec.Command(os.Args[0], "-test.run=^TestIngestFullDiskLeavesNoFolder$")
	cmd.Env = append(os.Environ(), fullDiskEnv+"="+out)
	output, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != ExitOutput {
		t.Fatalf("the child ended with %v, want exit %d:\n%s", err, ExitOutput, output)
	}
	if !strings.Contains(string(output), "file too large") {
		t.Errorf("the child's error does not come from the size limit:\n%s", output)
	}
	if got := names(t, parent); len(got) != 0 {
		t.Errorf("the failed ingest left %v in %s", got, parent)
	}
}

// ingestUnderFileSizeLimit is the child's side: it ingests a graph whose
// tables outgrow the limit into out and exits with the run's exit code.
func ingestUnderFileSizeLimit(t *testing.T, out string) {
	limit := syscall.Rlimit{Cur: fullDiskBytes, Max: fullDiskBytes}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &limit); err != nil {
		os.Stderr.WriteString("setting the file size limit: " + err.Error() + "\n")
		os.Exit(ExitInternal)
	}
	// The Go runtime ignores SIGXFSZ, so writes past the limit return EFBIG.
	cfg := loadIngest(t, "-generate", "grid:side=200,seed=1", "-out", out, "-compression", "none")
	_, err := Ingest(context.Background(), cfg, quietLog, io.Discard)
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
	}
	os.Exit(ExitCode(err))
}
