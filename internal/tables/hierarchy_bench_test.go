package tables

import (
	"testing"

	"github.com/pathflow/pathflow/internal/hierarchy/hierarchytest"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// BenchmarkReadHierarchy reads back the stored hierarchy of
// road:side=256,seed=1 (65,536 vertices; built once, about 1.5 cpu-s) on
// every core, checks included, and reports CPU seconds and arcs per
// second beside wall time.
func BenchmarkReadHierarchy(b *testing.B) {
	_, h := hierarchytest.Road(b, 256, 1)
	files := HierarchyFilesIn(b.TempDir())
	if _, err := WriteHierarchy(files, h, nil, WithCompression(Snappy)); err != nil {
		b.Fatal(err)
	}
	arcs := len(h.Up.Targets) + len(h.Down.Targets)
	cpu := tablestest.CPUSeconds()
	for b.Loop() {
		if _, _, err := ReadHierarchy(files); err != nil {
			b.Fatal(err)
		}
	}
	tablestest.ReportCPU(b, cpu)
	b.ReportMetric(float64(arcs)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Marcs/s")
}
