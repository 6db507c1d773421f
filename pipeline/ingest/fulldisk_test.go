//go:build linux

package ingest

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

	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/stageerr"
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
	if !errors.As(err, &exit) || exit.ExitCode() != int(stageerr.Output) {
		t.Fatalf("the child ended with %v, want exit %d:\n%s", err, stageerr.Output, output)
	}
	if !strings.Contains(string(output), "file too large") {
		t.Errorf("the child's error does not come from the size limit:\n%s", output)
	}
	if got := stagetest.Names(t, parent); len(got) != 0 {
		t.Errorf("the failed ingest left %v in %s", got, parent)
	}
}

// ingestUnderFileSizeLimit is the child's side: it ingests a graph whose
// tables outgrow the limit into out and exits with the kind of the run's error.
func ingestUnderFileSizeLimit(t *testing.T, out string) {
	limit := syscall.Rlimit{Cur: fullDiskBytes, Max: fullDiskBytes}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &limit); err != nil {
		os.Stderr.WriteString("setting the file size limit: " + err.Error() + "\n")
		os.Exit(int(stageerr.Internal))
	}
	// The Go runtime ignores SIGXFSZ, so writes past the limit return EFBIG.
	cfg := loadIngest(t, "-generate", "grid:side=200,seed=1", "-out", out, "-compression", "none")
	_, err := Run(context.Background(), cfg, stagetest.QuietLog, io.Discard)
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
	}
	os.Exit(int(stageerr.KindOf(err)))
}
