package ingest

import (
	"bufio"
	"fmt"
	"path/filepath"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables"
)

// Conversion file names: the extension each format's tools expect.
const (
	ConvertedBinary = "graph.bin"
	ConvertedDIMACS = "graph.gr"
)

// writeConversion writes e into dir as one file of format (IngestBinary or
// IngestDIMACS) over the dense ids (DIMACS: dense id + 1), for tools that
// read those formats. The file appears only when complete.
func writeConversion(dir, format string, e *graph.EdgeList) (info tables.FileInfo, err error) {
	name, write := ConvertedBinary, formats.WriteBinary
	if format == IngestDIMACS {
		name, write = ConvertedDIMACS, formats.WriteDIMACS
	}
	f, err := atomicfile.Create(filepath.Join(dir, name))
	if err != nil {
		return info, err
	}
	defer func() {
		if abortErr := f.Abort(); err == nil && abortErr != nil {
			err = fmt.Errorf("%s: %w", f.Name(), abortErr)
		}
	}()
	digest := tables.NewDigestWriter(f)
	buf := bufio.NewWriterSize(digest, 1<<20)
	if err := write(buf, e); err != nil {
		return info, fmt.Errorf("%s: %w", f.Name(), err)
	}
	if err := buf.Flush(); err != nil {
		return info, fmt.Errorf("%s: %w", f.Name(), err)
	}
	if err := f.Commit(); err != nil {
		return info, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return tables.FileInfo{Path: f.Name(), Rows: int64(e.M()), Bytes: digest.Bytes(), SHA256: digest.Sum()}, nil
}
