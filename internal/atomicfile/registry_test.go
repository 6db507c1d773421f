package atomicfile

import (
	"bytes"
	"errors"
	"path/filepath"
	"sync"
	"testing"
)

func TestAbortAll(t *testing.T) {
	parent := t.TempDir()
	var files []*File
	for _, name := range []string{"a", "b", "c"} {
		f, err := Create(filepath.Join(parent, name))
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(name))
		files = append(files, f)
	}
	d, err := CreateDir(filepath.Join(parent, "dir"))
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, d.Path(), map[string]string{"part": "p"})
	// A committed file is no longer in flight and must survive.
	kept, err := Create(filepath.Join(parent, "kept"))
	if err != nil {
		t.Fatal(err)
	}
	if err := kept.Commit(); err != nil {
		t.Fatal(err)
	}

	n, err := AbortAll()
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Errorf("AbortAll aborted %d temporaries, want 4", n)
	}
	if got := entries(t, parent); len(got) != 1 || got[0] != "kept" {
		t.Errorf("parent holds %v, want only kept", got)
	}
	for _, f := range files {
		if err := f.Commit(); !errors.Is(err, ErrAborted) {
			t.Errorf("Commit of %s after AbortAll: %v, want ErrAborted", f.Name(), err)
		}
	}
	if err := d.Commit(); !errors.Is(err, ErrAborted) {
		t.Errorf("Dir Commit after AbortAll: %v, want ErrAborted", err)
	}
	if n, _ := AbortAll(); n != 0 || Pending() != 0 {
		t.Errorf("second AbortAll found %d, Pending %d; want 0, 0", n, Pending())
	}
}

// TestAbortAllWhileWriting runs AbortAll against a writer on another
// goroutine; under -race it checks the two never touch shared state unsafely.
func TestAbortAllWhileWriting(t *testing.T) {
	parent := t.TempDir()
	f, err := Create(filepath.Join(parent, "out"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 1000 {
			if _, err := f.Write([]byte("data")); err != nil {
				return
			}
		}
	}()
	AbortAll()
	wg.Wait()
	if err := f.Commit(); !errors.Is(err, ErrAborted) {
		t.Errorf("Commit after AbortAll: %v, want ErrAborted", err)
	}
	if got := entries(t, parent); len(got) != 0 {
		t.Errorf("parent holds %v, want nothing", got)
	}
}

func TestAnnounceTo(t *testing.T) {
	var got bytes.Buffer
	AnnounceTo(&got)
	defer AnnounceTo(nil)
	dir := t.TempDir()
	d, err := CreateDir(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Abort()
	inner, err := Create(filepath.Join(d.Path(), "part.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Abort()
	f, err := Create(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	want := filepath.Join(dir, "out") + "\x00" + filepath.Join(dir, "manifest.json") + "\x00"
	if got.String() != want {
		t.Errorf("announced %q, want %q (a file inside a temporary folder is not announced)", got.String(), want)
	}
}
