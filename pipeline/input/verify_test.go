package input

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/pipeline/output"
)

// TestCheckMapped: a mapped file passes when its size and its checksum
// of itself are those listed, and each mismatch is named; an entry
// without a checksum (an older ingest) has the file hashed instead.
func TestCheckMapped(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, output.HierarchyName)
	data := []byte("the bytes of a mapped file")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := output.SHA256Of(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	entry := output.ManifestFile{Path: output.HierarchyName, Bytes: int64(len(data)), SHA256: sum, Checksum: "crc32c:0badf00d"}
	listing := func(f output.ManifestFile) *Listing {
		return &Listing{dir: dir, manifest: &output.IngestManifest{Files: []output.ManifestFile{f}}}
	}
	l := listing(entry)
	if err := l.CheckMapped(path, entry.Bytes, entry.Checksum); err != nil {
		t.Errorf("the file as listed: %v", err)
	}
	for _, tc := range []struct {
		name     string
		bytes    int64
		checksum string
		want     string
	}{
		{"another size", entry.Bytes + 1, entry.Checksum, "its size is 27 bytes, manifest.json lists 26"},
		{"another checksum", entry.Bytes, "crc32c:12345678", "its checksum is crc32c:12345678, manifest.json lists crc32c:0badf00d"},
	} {
		err := l.CheckMapped(path, tc.bytes, tc.checksum)
		if err == nil || !strings.Contains(err.Error(), path+": corrupt, or changed since ingest: "+tc.want) {
			t.Errorf("%s: %v, want it to say %q", tc.name, err, tc.want)
		}
	}
	if err := l.CheckMapped(filepath.Join(dir, "other.chf"), entry.Bytes, entry.Checksum); err == nil || !strings.Contains(err.Error(), "not listed") {
		t.Errorf("an unlisted file: %v", err)
	}

	older := entry
	older.Checksum = ""
	if err := listing(older).CheckMapped(path, entry.Bytes, "crc32c:12345678"); err != nil {
		t.Errorf("the file as listed by an older ingest: %v", err)
	}
	damaged := bytes.Clone(data)
	damaged[3] ^= 0x01
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := listing(older).CheckMapped(path, entry.Bytes, "crc32c:12345678"); err == nil || !strings.Contains(err.Error(), "its SHA-256 is") {
		t.Errorf("a damaged file listed by an older ingest: %v, want its SHA-256 named", err)
	}
}
