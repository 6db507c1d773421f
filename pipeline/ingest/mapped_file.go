package ingest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pathflow/pathflow/internal/mapfile"
	"github.com/pathflow/pathflow/internal/tables"
)

// writeMappedFile creates the mapped file name (the reload file, the
// hierarchy's) in the ingest output folder dir, fills it with write
// (csrfile.Write, chfile.Write) and returns its entry for the manifest,
// of rows rows, with the checksums write took as it wrote. On a
// big-endian host, where write refuses with mapfile.ErrBigEndian, the
// empty file is removed: the folder holds no file its manifest would not
// list.
func writeMappedFile(dir, name string, rows int64, write func(io.Writer) (mapfile.Written, error)) (tables.FileInfo, error) {
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		return tables.FileInfo{}, err
	}
	defer f.Close()
	w, err := write(f)
	if err != nil {
		if errors.Is(err, mapfile.ErrBigEndian) {
			f.Close()
			os.Remove(path)
		}
		return tables.FileInfo{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return tables.FileInfo{}, err
	}
	return tables.FileInfo{Path: path, Rows: rows, Bytes: w.Bytes, SHA256: w.SHA256, Checksum: w.Checksum}, nil
}
