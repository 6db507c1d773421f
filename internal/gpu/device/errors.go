package device

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
)

// ErrNotSupported is wrapped by errors for algorithms, variants or methods
// the GPU backend does not implement. It wraps backend.ErrUnsupported, so
// the pipeline reports such a request as a configuration problem.
var ErrNotSupported = fmt.Errorf("%w (GPU)", backend.ErrUnsupported)

// ErrNeedsInt64 is wrapped by errors for graphs whose shortest-path
// distances might not fit the GPU's int32 arithmetic; the caller should run
// the CPU backend instead. It covers graph.FitsInt32Distances and, for
// graphs with negative arcs, the stricter 2 * DistanceBound < Inf32 that
// keeps "unreachable" distinguishable from every real distance. It wraps
// backend.ErrNeedsInt64, which is what callers outside this package test.
var ErrNeedsInt64 = fmt.Errorf("gpu: %w (use the CPU backend)", backend.ErrNeedsInt64)

// Name is the name the GPU backend registers under, which its errors carry.
const Name = "gpu"

// OutOfMemoryError reports an allocation larger than the device's free
// memory.
type OutOfMemoryError struct {
	// What names the allocation ("distance matrix 16384 x 16384").
	What string
	// Need, Free and Total are in bytes.
	Need, Free, Total int64
}

// Error names the allocation and the sizes.
func (e *OutOfMemoryError) Error() string {
	return fmt.Sprintf("gpu: %s needs %s of device memory, only %s of %s is free",
		e.What, FormatBytes(e.Need), FormatBytes(e.Free), FormatBytes(e.Total))
}

// FormatBytes prints a byte count with a binary unit.
func FormatBytes(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := int64(unit), 0
	for n := b / unit; n >= unit; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTPE"[exp])
}
