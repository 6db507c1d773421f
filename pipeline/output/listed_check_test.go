package output

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckListed: a file as listed passes; a missing one, one of another
// size and one of the listed size with a byte changed each give their
// own error.
func TestCheckListed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "part-00000.parquet")
	data := []byte("the bytes of a committed part file")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := SHA256Of(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	listed := ManifestFile{Path: "part-00000.parquet", Bytes: int64(len(data)), SHA256: sum}
	if err := CheckListed(path, listed); err != nil {
		t.Fatalf("the file as listed: %v", err)
	}

	var notOpened *NotOpenedError
	if err := CheckListed(path+".gone", listed); !errors.As(err, &notOpened) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want a *NotOpenedError of fs.ErrNotExist", err)
	}
	var size *SizeMismatchError
	longer := listed
	longer.Bytes++
	if err := CheckListed(path, longer); !errors.As(err, &size) || size.Bytes != listed.Bytes || size.Listed != longer.Bytes {
		t.Errorf("a file of another size: %v, want a *SizeMismatchError", err)
	}
	damaged := bytes.Clone(data)
	damaged[len(damaged)/2] ^= 0x01
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	var changed *SHA256MismatchError
	if err := CheckListed(path, listed); !errors.As(err, &changed) || changed.Listed != sum || changed.SHA256 == sum {
		t.Errorf("a file damaged in place: %v, want a *SHA256MismatchError", err)
	}
}
