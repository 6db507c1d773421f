package atomicfile

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childDirEnv, when set, makes TestKilledWriterChild the child of
// TestKilledWriterLeavesNothingReadable: it writes an output under that
// folder until it is killed.
const childDirEnv = "ATOMICFILE_TEST_CHILD_DIR"

// TestKilledWriterChild is the writer that its parent test kills; run
// alone it does nothing.
func TestKilledWriterChild(t *testing.T) {
	parent := os.Getenv(childDirEnv)
	if parent == "" {
		t.Skip("runs only as the child of TestKilledWriterLeavesNothingReadable")
	}
	d, err := CreateDir(filepath.Join(parent, "out"))
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(d.Path(), "distances"), 0o755)
	f, err := d.Create(filepath.Join(d.Path(), "distances", "part-00000.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 64<<10)
	f.Write(block)
	fmt.Println("writing")
	for { // until SIGKILL
		f.Write(block)
		time.Sleep(10 * time.Millisecond)
	}
}

func TestKilledWriterLeavesNothingReadable(t *testing.T) {
	parent := t.TempDir()
	// A committed earlier output, which must stay readable throughout.
	first, err := CreateDir(filepath.Join(parent, "out"))
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(first.Path(), "distances"), 0o755)
	f, _ := first.Create(filepath.Join(first.Path(), "distances", "part-00000.parquet"))
	f.WriteString("committed")
	f.Close()
	if err := first.Commit(); err != nil {
		t.Fatal(err)
	}

	killWriterMidWrite(t, parent)
	stale := hidden(t, parent)
	if len(stale) != 1 {
		t.Fatalf("after SIGKILL the parent holds hidden %v, want the child's temporary", stale)
	}
	want := []string{"out/distances/part-00000.parquet"}
	if got := finalFiles(t, parent, ".parquet"); !slices.Equal(got, want) {
		t.Errorf("while the stale attempt is there a glob finds %v, want %v", got, want)
	}

	// A live attempt of this process and one of another host stay.
	live, err := CreateDir(filepath.Join(parent, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Abort()
	other := filepath.Join(parent, ".out.tmp-1-elsewhere.example-123")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}

	removed, err := RemoveStale(filepath.Join(parent, "out"))
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0] != filepath.Join(parent, stale[0]) {
		t.Errorf("RemoveStale removed %v, want [%s]", removed, stale[0])
	}
	wantHidden := []string{filepath.Base(other), filepath.Base(live.Path())}
	slices.Sort(wantHidden)
	if got := hidden(t, parent); !slices.Equal(got, wantHidden) {
		t.Errorf("after RemoveStale hidden entries are %v, want %v", got, wantHidden)
	}
	if got := finalFiles(t, parent, ".parquet"); !slices.Equal(got, want) {
		t.Errorf("after RemoveStale a glob finds %v, want %v", got, want)
	}
}

// killWriterMidWrite runs TestKilledWriterChild in a child process writing
// under parent and kills it with SIGKILL while it writes.
func killWriterMidWrite(t *testing.T, parent string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriterChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childDirEnv+"="+parent)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "writing" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q, %v", line, err)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the child exited normally")
	}
}

// hidden lists the names in dir that start with a dot.
func hidden(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, name := range entries(t, dir) {
		if strings.HasPrefix(name, ".") {
			out = append(out, name)
		}
	}
	return out
}

func TestParseTemp(t *testing.T) {
	for _, tc := range []struct {
		name, base string
		ok         bool
		pid        int
		host       string
	}{
		{".out.tmp-42-vm-123", "out", true, 42, "vm"},
		{".rome99-dijkstra.old-7-node_3.cluster-9", "rome99-dijkstra", true, 7, "node_3.cluster"},
		{".manifest.json.tmp-5-h-1", "manifest.json", true, 5, "h"},
		{".out.tmp-123456", "out", false, 0, ""}, // the old form carries no owner
		{".out.tmp-x-vm-1", "out", false, 0, ""},
		{".other.tmp-42-vm-1", "out", false, 0, ""},
		{"out", "out", false, 0, ""},
	} {
		o, ok := parseTemp(tc.name, tc.base)
		if ok != tc.ok || o.pid != tc.pid || o.host != tc.host {
			t.Errorf("parseTemp(%q, %q) = %+v, %v; want pid %d host %q, %v", tc.name, tc.base, o, ok, tc.pid, tc.host, tc.ok)
		}
	}
}

func TestTemporaryNamesCarryTheOwner(t *testing.T) {
	parent := t.TempDir()
	d, err := CreateDir(filepath.Join(parent, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Abort()
	f, err := Create(filepath.Join(parent, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	for _, c := range []struct{ path, base string }{{d.Path(), "out"}, {f.TempName(), "report.json"}} {
		o, ok := parseTemp(filepath.Base(c.path), c.base)
		if !ok || o.pid != os.Getpid() || o.host != hostTag() {
			t.Errorf("%s: owner %+v, %v; want this process on %s", c.path, o, ok, hostTag())
		}
	}
	if strings.HasSuffix(f.TempName(), ".json") {
		t.Errorf("temporary %s keeps the final extension", f.TempName())
	}
}
