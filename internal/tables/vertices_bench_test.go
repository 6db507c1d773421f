package tables

import (
	"path/filepath"
	"testing"
)

// BenchmarkWriteVertices times the vertices table a compute output
// carries, for a graph of grid 2000's 4,000,000 vertices with identity
// ids (what a generated or binary input gives).
func BenchmarkWriteVertices(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		if _, err := WriteVertices(filepath.Join(dir, "vertices.parquet"), 4_000_000, nil, map[string]string{"k": "v"}); err != nil {
			b.Fatal(err)
		}
	}
}
