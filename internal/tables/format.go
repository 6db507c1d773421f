package tables

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// Format is the file format of a table.
type Format int

const (
	// Parquet is Apache Parquet, Snappy-compressed by default.
	Parquet Format = iota
	// Arrow is the Arrow IPC file format ("Feather v2"), uncompressed by
	// default.
	Arrow
)

// parquetMagic opens and closes every Parquet file; ipc.Magic ("ARROW1")
// does the same for Arrow IPC files.
var parquetMagic = []byte("PAR1")

// ParseFormat parses "parquet" or "arrow" (also "ipc" and "feather"),
// case-insensitively.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "parquet":
		return Parquet, nil
	case "arrow", "ipc", "feather":
		return Arrow, nil
	}
	return 0, fmt.Errorf("tables: unknown format %q (want parquet or arrow)", s)
}

// String returns "parquet" or "arrow".
func (f Format) String() string {
	switch f {
	case Parquet:
		return "parquet"
	case Arrow:
		return "arrow"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// Ext returns the file name extension of the format, with its dot.
func (f Format) Ext() string { return "." + f.String() }

// Set parses s into f, so a *Format can serve as a command-line flag value.
func (f *Format) Set(s string) error {
	v, err := ParseFormat(s)
	if err != nil {
		return err
	}
	*f = v
	return nil
}

// Type names the flag value type for pflag.
func (f *Format) Type() string { return "format" }

func (f Format) valid() bool { return f == Parquet || f == Arrow }

// DetectFormat tells a table file's format from its leading magic bytes.
func DetectFormat(r io.ReaderAt) (Format, error) {
	head := make([]byte, len(ipc.Magic))
	n, err := r.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return 0, fmt.Errorf("tables: %w", err)
	}
	head = head[:n]
	switch {
	case bytes.Equal(head, ipc.Magic):
		return Arrow, nil
	case bytes.HasPrefix(head, parquetMagic):
		return Parquet, nil
	}
	return 0, fmt.Errorf("tables: neither an Arrow IPC file nor a Parquet file (starts with %q)", head)
}

// DetectFileFormat is DetectFormat on the file at path.
func DetectFileFormat(path string) (Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("tables: %w", err)
	}
	defer f.Close()
	format, err := DetectFormat(f)
	if err != nil {
		return 0, fmt.Errorf("%w: %s", err, path)
	}
	return format, nil
}
