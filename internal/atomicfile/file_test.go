package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// entries lists the names in dir, sorted.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return names
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFileCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.bin")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(f.TempName()), ".out.bin.tmp-") || filepath.Dir(f.TempName()) != dir {
		t.Errorf("temporary %s is not .out.bin.tmp-* in %s", f.TempName(), dir)
	}
	if _, err := f.Write([]byte("hello ")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("world")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("final name exists before Commit: %v", err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "hello world" {
		t.Errorf("content %q, want %q", got, "hello world")
	}
	if got := entries(t, dir); len(got) != 1 || got[0] != "out.bin" {
		t.Errorf("folder holds %v, want only out.bin", got)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != DefaultFilePerm {
		t.Errorf("permissions %v, want %v", info.Mode().Perm(), DefaultFilePerm)
	}
	if err := f.Commit(); err != nil {
		t.Errorf("second Commit: %v", err)
	}
	if err := f.Abort(); err != nil {
		t.Errorf("Abort after Commit: %v", err)
	}
	if got := readString(t, path); got != "hello world" {
		t.Errorf("Abort after Commit changed the file to %q", got)
	}
	if Pending() != 0 {
		t.Errorf("%d temporaries still registered", Pending())
	}
}

func TestFileAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.bin")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("partial"))
	if err := f.Abort(); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); len(got) != 0 {
		t.Errorf("folder holds %v after Abort, want nothing", got)
	}
	if _, err := f.Write([]byte("more")); err == nil {
		t.Error("Write after Abort succeeded")
	}
	if err := f.Commit(); !errors.Is(err, ErrAborted) {
		t.Errorf("Commit after Abort: %v, want ErrAborted", err)
	}
	if err := f.Abort(); err != nil {
		t.Errorf("second Abort: %v", err)
	}
}

func TestFileReplacesOnlyOnCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path, WithPerm(0o600))
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	if got := readString(t, path); got != "old" {
		t.Fatalf("before Commit the file reads %q, want old", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "new" {
		t.Errorf("after Commit the file reads %q, want new", got)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o600 {
		t.Errorf("permissions %v, want 0600", info.Mode().Perm())
	}

	// An aborted rewrite leaves the committed file alone.
	g, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	g.Write([]byte("discarded"))
	g.Abort()
	if got := readString(t, path); got != "new" {
		t.Errorf("after an aborted rewrite the file reads %q, want new", got)
	}
}

func TestFileCommitFailureRemovesTemporary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "taken")
	// A non-empty directory under the final name makes the rename fail.
	if err := os.MkdirAll(filepath.Join(path, "child"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("x"))
	if err := f.Commit(); err == nil {
		t.Fatal("Commit over a non-empty directory succeeded")
	}
	if got := entries(t, dir); len(got) != 1 || got[0] != "taken" {
		t.Errorf("folder holds %v, want only the directory", got)
	}
	if err := f.Commit(); !errors.Is(err, ErrAborted) {
		t.Errorf("Commit after a failed Commit: %v, want ErrAborted", err)
	}
}

func TestCreateErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Create(filepath.Join(dir, "missing", "out")); err == nil {
		t.Error("Create in a missing folder succeeded")
	}
	if _, err := Create(dir + string(filepath.Separator)); err == nil {
		t.Error("Create of a folder path succeeded")
	}
	if Pending() != 0 {
		t.Errorf("failed Creates left %d registered temporaries", Pending())
	}
}
