package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDirCommitNew(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "result")
	d, err := CreateDir(final)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(d.Path()) != parent || !strings.HasPrefix(filepath.Base(d.Path()), ".result.tmp-") {
		t.Errorf("temporary %s is not .result.tmp-* in %s", d.Path(), parent)
	}
	writeFiles(t, d.Path(), map[string]string{"part-0": "a", "sub/part-1": "b"})
	if _, err := os.Stat(final); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("final directory exists before Commit: %v", err)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(final, "part-0")); got != "a" {
		t.Errorf("part-0 reads %q", got)
	}
	if got := readString(t, filepath.Join(final, "sub", "part-1")); got != "b" {
		t.Errorf("sub/part-1 reads %q", got)
	}
	if got := entries(t, parent); len(got) != 1 || got[0] != "result" {
		t.Errorf("parent holds %v, want only result", got)
	}
	info, _ := os.Stat(final)
	if info.Mode().Perm() != DefaultDirPerm {
		t.Errorf("permissions %v, want %v", info.Mode().Perm(), DefaultDirPerm)
	}
	if err := d.Abort(); err != nil {
		t.Errorf("Abort after Commit: %v", err)
	}
	if _, err := os.Stat(filepath.Join(final, "part-0")); err != nil {
		t.Errorf("Abort after Commit removed output: %v", err)
	}
}

func TestDirReplacesOldOnlyOnCommit(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "result")
	writeFiles(t, final, map[string]string{"part-0": "old0", "part-1": "old1", "part-2": "old2"})

	d, err := CreateDir(final)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, d.Path(), map[string]string{"part-0": "new0"})
	if got := entries(t, final); len(got) != 3 {
		t.Fatalf("old output changed before Commit: %v", got)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, final); len(got) != 1 || got[0] != "part-0" {
		t.Errorf("output holds %v, want only part-0 (no stale old parts)", got)
	}
	if got := readString(t, filepath.Join(final, "part-0")); got != "new0" {
		t.Errorf("part-0 reads %q, want new0", got)
	}
	if got := entries(t, parent); len(got) != 1 {
		t.Errorf("parent holds %v, want only result (no .old- or .tmp- left)", got)
	}
}

func TestDirAbortKeepsOld(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "result")
	writeFiles(t, final, map[string]string{"part-0": "old"})
	d, err := CreateDir(final)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, d.Path(), map[string]string{"part-0": "new"})
	if err := d.Abort(); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(final, "part-0")); got != "old" {
		t.Errorf("after Abort part-0 reads %q, want old", got)
	}
	if got := entries(t, parent); len(got) != 1 {
		t.Errorf("parent holds %v after Abort", got)
	}
	if err := d.Commit(); !errors.Is(err, ErrAborted) {
		t.Errorf("Commit after Abort: %v, want ErrAborted", err)
	}
}

func TestDirCommitOverFileFails(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "result")
	writeFiles(t, parent, map[string]string{"result": "a file"})
	d, err := CreateDir(final)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, d.Path(), map[string]string{"part-0": "x"})
	if err := d.Commit(); err == nil {
		t.Fatal("Commit over a regular file succeeded")
	}
	if got := readString(t, final); got != "a file" {
		t.Errorf("the file now reads %q", got)
	}
	if got := entries(t, parent); len(got) != 1 {
		t.Errorf("parent holds %v, want the temporary removed", got)
	}
}

func TestCreateDirErrors(t *testing.T) {
	parent := t.TempDir()
	if _, err := CreateDir(filepath.Join(parent, "missing", "result")); err == nil {
		t.Error("CreateDir in a missing folder succeeded")
	}
	if _, err := CreateDir("/"); err == nil {
		t.Error("CreateDir of / succeeded")
	}
}
