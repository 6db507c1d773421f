package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// canExchange reports whether dir's file system swaps directories in one
// step.
func canExchange(t *testing.T, dir string) bool {
	t.Helper()
	a, b := filepath.Join(dir, "probe-a"), filepath.Join(dir, "probe-b")
	for _, p := range []string{a, b} {
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(p)
	}
	err := exchange(a, b)
	if err != nil && !errors.Is(err, errNoExchange) {
		t.Fatalf("probing the exchange: %v", err)
	}
	return err == nil
}

// withoutExchange makes replaceDir take the two-rename fallback for the
// rest of the test.
func withoutExchange(t *testing.T) {
	exchangeDirs = func(a, b string) error { return errNoExchange }
	t.Cleanup(func() { exchangeDirs = exchange })
}

// replaceWhileReading commits n generations of a directory holding
// manifest.json while a reader reads that file in a loop, and returns how
// many reads found it missing or incomplete, and how many reads there were.
func replaceWhileReading(t *testing.T, final string, n int) (missing, reads int64) {
	t.Helper()
	commit := func(gen int) {
		d, err := CreateDir(final)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Abort()
		writeFiles(t, d.Path(), map[string]string{
			"part-0":        strings.Repeat("x", gen),
			"manifest.json": fmt.Sprintf("{\"generation\": %d}\n", gen),
		})
		if err := d.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	commit(0)
	var stop atomic.Bool
	var bad, total atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			b, err := os.ReadFile(filepath.Join(final, "manifest.json"))
			total.Add(1)
			if err != nil || !strings.HasSuffix(string(b), "}\n") {
				bad.Add(1)
			}
		}
	}()
	for gen := 1; gen <= n; gen++ {
		commit(gen)
	}
	stop.Store(true)
	wg.Wait()
	if got := readString(t, filepath.Join(final, "manifest.json")); got != fmt.Sprintf("{\"generation\": %d}\n", n) {
		t.Errorf("after %d commits the manifest reads %q", n, got)
	}
	if got := entries(t, filepath.Dir(final)); len(got) != 1 {
		t.Errorf("the folder holds %v, want only the output (no .tmp- or .old- left)", got)
	}
	return bad.Load(), total.Load()
}

// TestReplaceNeverHidesTheManifest: a reader polling the output's manifest
// while it is replaced 200 times always finds it, whole.
func TestReplaceNeverHidesTheManifest(t *testing.T) {
	parent := t.TempDir()
	if !canExchange(t, parent) {
		t.Skipf("the file system of %s cannot swap directories in one step", parent)
	}
	missing, reads := replaceWhileReading(t, filepath.Join(parent, "out"), 200)
	if missing != 0 {
		t.Errorf("the manifest was missing or incomplete in %d of %d reads", missing, reads)
	}
	if reads < 200 {
		t.Errorf("the reader read only %d times: it did not overlap the replacements", reads)
	}
}

// TestReplaceWithoutExchange: where the system has no exchange, the
// fallback still replaces the whole directory and leaves nothing beside
// it; only the final name may be missing for a moment, which is logged.
func TestReplaceWithoutExchange(t *testing.T) {
	withoutExchange(t)
	missing, reads := replaceWhileReading(t, filepath.Join(t.TempDir(), "out"), 50)
	t.Logf("without the exchange the manifest was missing in %d of %d reads", missing, reads)
}

// TestCommitIntoReplacesWithoutAGap: a partition replaced by CommitInto
// is swapped in one step, and the old partition's files are gone.
func TestCommitIntoReplacesPartition(t *testing.T) {
	for _, fallback := range []bool{false, true} {
		t.Run(fmt.Sprintf("fallback=%v", fallback), func(t *testing.T) {
			if fallback {
				withoutExchange(t)
			}
			root := t.TempDir()
			writeFiles(t, root, map[string]string{"t/shard=1/old-part": "old", "t/shard=2/other": "keep"})
			d, err := CreateDir(filepath.Join(root, "shard=1"))
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, d.Path(), map[string]string{"t/shard=1/new-part": "new"})
			if err := d.CommitInto(root, filepath.Join("t", "shard=1")); err != nil {
				t.Fatal(err)
			}
			if got := entries(t, filepath.Join(root, "t", "shard=1")); len(got) != 1 || got[0] != "new-part" {
				t.Errorf("the partition holds %v, want only new-part", got)
			}
			if got := readString(t, filepath.Join(root, "t", "shard=2", "other")); got != "keep" {
				t.Errorf("another partition changed: %q", got)
			}
			if got := entries(t, root); len(got) != 1 || got[0] != "t" {
				t.Errorf("the root holds %v, want only t (the temporary removed)", got)
			}
		})
	}
}

func TestIsTemporary(t *testing.T) {
	d, err := CreateDir(filepath.Join(t.TempDir(), "out.v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Abort()
	f, err := Create(filepath.Join(t.TempDir(), "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	for _, tc := range []struct {
		name string
		want bool
	}{
		{filepath.Base(d.Path()), true},
		{filepath.Base(f.TempName()), true},
		{".out.old-12-host.example-99", true},
		{".shard=0003.tmp-7-h-1", true},
		{"out.tmp-12-host-99", false}, // not hidden
		{".out.tmp-x-host-99", false}, // no pid
		{".out.tmp-12-host", false},   // no random part
		{".notes.txt", false},
		{"important.txt", false},
	} {
		if got := IsTemporary(tc.name); got != tc.want {
			t.Errorf("IsTemporary(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
