package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// finalFiles lists the files under root whose names end in ext, the way a
// reader's recursive glob (root/**/*ext) sees them, hidden folders included.
func finalFiles(t *testing.T, root, ext string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && strings.HasSuffix(e.Name(), ext) {
			rel, _ := filepath.Rel(root, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func TestCreateInWritesPartialsUntilCommit(t *testing.T) {
	parent := t.TempDir()
	d, err := CreateDir(filepath.Join(parent, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Abort()
	if err := os.Mkdir(filepath.Join(d.Path(), "distances"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"distances/part-00000.parquet", "summary.parquet"} {
		f, err := CreateIn(filepath.Join(d.Path(), name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(f.Name(), ".parquet"+PartialSuffix) {
			t.Errorf("uncommitted file is named %s, want a %s suffix", f.Name(), PartialSuffix)
		}
		f.WriteString(name)
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if got := finalFiles(t, parent, ".parquet"); len(got) != 0 {
		t.Fatalf("a glob finds %v before Commit", got)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	want := []string{"out/distances/part-00000.parquet", "out/summary.parquet"}
	if got := finalFiles(t, parent, ".parquet"); !slices.Equal(got, want) {
		t.Errorf("after Commit a glob finds %v, want %v", got, want)
	}
	if got := finalFiles(t, parent, PartialSuffix); len(got) != 0 {
		t.Errorf("partials left after Commit: %v", got)
	}
	if got := readString(t, filepath.Join(parent, "out", "summary.parquet")); got != "summary.parquet" {
		t.Errorf("summary.parquet reads %q", got)
	}
}

func TestCreateInOutsideADirIsPlainCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plain.parquet")
	f, err := CreateIn(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if f.Name() != path {
		t.Errorf("created %s, want %s", f.Name(), path)
	}
}

func TestDirCreateRejectsPathsOutside(t *testing.T) {
	parent := t.TempDir()
	d, err := CreateDir(filepath.Join(parent, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Abort()
	if _, err := d.Create(filepath.Join(parent, "elsewhere.parquet")); err == nil {
		t.Error("Create outside the temporary succeeded")
	}
	if _, err := d.Create(filepath.Join(d.Path(), "missing", "part.parquet")); err == nil {
		t.Error("Create in a missing folder succeeded (a folder removed under a writer must fail it)")
	}
	d.Abort()
	if _, err := d.Create(filepath.Join(d.Path(), "late.parquet")); err == nil {
		t.Error("Create after Abort succeeded")
	}
}

func TestFileInsideDirCommitsWithTheDir(t *testing.T) {
	parent := t.TempDir()
	d, err := CreateDir(filepath.Join(parent, "out"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Create(filepath.Join(d.Path(), "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !f.inDir {
		t.Error("a file inside an open Dir does not leave syncing to the Dir")
	}
	f.Write([]byte("{}"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(parent, "out", "manifest.json")); got != "{}" {
		t.Errorf("manifest reads %q", got)
	}
}

func TestCommitIntoReplacesPartitions(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"distances/shard=0001/part-00000.parquet": "old0",
		"distances/shard=0001/part-00001.parquet": "old1",
		"distances/shard=0002/part-00000.parquet": "other shard",
	})
	d, err := CreateDir(filepath.Join(root, "shard=0001"))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"distances/shard=0001/part-00000.parquet": "new0",
		"_shards/shard=0001/_SUCCESS":             "",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(d.Path(), name)), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := d.Create(filepath.Join(d.Path(), name))
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(text)
		f.Close()
	}
	if err := d.CommitInto(root, "distances/shard=0001", "_shards/shard=0001"); err != nil {
		t.Fatal(err)
	}
	want := []string{"distances/shard=0001/part-00000.parquet", "distances/shard=0002/part-00000.parquet"}
	if got := finalFiles(t, root, ".parquet"); !slices.Equal(got, want) {
		t.Errorf("files %v, want %v (the old shard's second part gone)", got, want)
	}
	if got := readString(t, filepath.Join(root, "distances/shard=0001/part-00000.parquet")); got != "new0" {
		t.Errorf("part reads %q, want new0", got)
	}
	if _, err := os.Stat(filepath.Join(root, "_shards/shard=0001/_SUCCESS")); err != nil {
		t.Error(err)
	}
	if got := entries(t, root); !slices.Equal(got, []string{"_shards", "distances"}) {
		t.Errorf("root holds %v, want no temporary left", got)
	}
}

func TestMoveKeepsPendingNames(t *testing.T) {
	root := t.TempDir()
	d, err := CreateDir(filepath.Join(root, "attempt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(d.Path(), "distances"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"distances/part-00000.parquet", "summary.parquet"} {
		f, err := d.Create(filepath.Join(d.Path(), name))
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(name)
		f.Close()
	}
	moves := [][2]string{
		{"distances", ".distances"},
		{".distances", "distances/shard=0002"},
		{"summary.parquet", "summary/shard=0002/part-00000.parquet"},
	}
	for _, m := range moves {
		if err := d.Move(filepath.Join(d.Path(), m[0]), filepath.Join(d.Path(), m[1])); err != nil {
			t.Fatal(err)
		}
	}
	if got := finalFiles(t, root, ".parquet"); len(got) != 0 {
		t.Fatalf("moved files show final names before Commit: %v", got)
	}
	if err := d.CommitInto(root, "distances/shard=0002", "summary/shard=0002"); err != nil {
		t.Fatal(err)
	}
	want := []string{"distances/shard=0002/part-00000.parquet", "summary/shard=0002/part-00000.parquet"}
	if got := finalFiles(t, root, ".parquet"); !slices.Equal(got, want) {
		t.Errorf("committed %v, want %v", got, want)
	}
	if got := readString(t, filepath.Join(root, want[1])); got != "summary.parquet" {
		t.Errorf("moved summary reads %q", got)
	}
}
